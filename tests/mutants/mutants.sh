#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation check: break one fact at a time in hw/ or the model and require the
# unit tests to fail. A mutant that survives means a test that cannot fail.
# Usage: tests/mutants/mutants.sh [BUILD_DIR]   (run from the top of the tree)
# MUTANTS_ONLY=ERE runs only the mutants whose file matches (a refactor's quick check: the count
# it prints is of those; make test always runs them all).
set -u
top=$(pwd)
work=$(mktemp -d /tmp/gttlab-mutants.XXXXXX)
trap 'rm -rf "$work"' EXIT

# file ~ sed expression ~ what the tests must notice [~ Criterion filter: a test that catches it]
# With a filter, those tests run first (a quick catch); the whole suite runs only if they pass, so
# a filter that names no test any more costs time, never a caught mutant. The filters are the
# tests the whole suite first failed on (suite::test as mutants.sh prints it, written suite/test).
mutants=(
"hw/detect_pvinfo.c~s/if (pv->nonmappable_base < ap)/if (0)/~guest mode: a non-mappable slice inside the aperture taken~pvinfo_detect/a_nonmappable_base_inside_the_aperture_is_refused"
"hw/detect_pvinfo.c~s/if (pv->mappable_size > ap - pv->mappable_base)/if (0)/~guest mode: a mappable slice past the aperture taken~pvinfo_detect/a_mappable_end_beyond_the_aperture_is_refused"
"hw/detect_pvinfo.c~s/if (pv->fence_num > in->num_fences)/if (0)/~guest mode: a fence_num beyond the platform's fences taken~pvinfo_detect/a_fence_num_beyond_the_platforms_fences_is_refused"
"checks/runner.c~s/^	if (!pv->active)$/	if (1)/~guest mode: the aperture outside the vGPU's slice not kept off~guest_faults/the_whole_table_keeps_inside_the_vgpu_skl"
"checks/runner.c~s/unsigned fences = dev->info.pvinfo.active ? dev->info.pvinfo.fence_num : dev->info.num_fences;/unsigned fences = dev->info.num_fences;/~guest mode: checks claim fences at or above fence_num~guest_faults/the_whole_table_keeps_inside_the_vgpu_skl"
"checks/runner.c~s/if ((k->requires \& REQ_GUEST) \&\& !dev->info.pvinfo.active)/if (0)/~guest checks run on a native device~runner/no_aperture_or_no_fences_skips_with_the_reason"
"checks/checks_guest_common.c~s/	if (!c->dev->ops->host_audit)/	if (1)/~guest checks never ask the host side~guest_faults/every_guest_visible_fault_is_caught_skl"
"checks/checks_guest_resize.c~s/	if (st != GTTLAB_GM_ST_BAD_COUNT)/	if (0)/~guest-resize takes any answer to a request for 0 slots~guest_faults/every_guest_visible_fault_is_caught_skl"
"dom0/guest_device.c~s/if (!inside(gm, len, in.low_base, in.low_size) \&\& /if (0 \&\& !inside(gm, len, in.low_base, in.low_size) \&\& /~vgpu: GPU-side access outside the guest's ranges allowed~guest_device/*"
"dom0/guest_device_host.c~s/	if (g->o.migrate \&\& !(g->epoch_reads % g->o.migrate))/	if (0)/~vgpu: the host never moves the guest's high range~guest_device_hostile/random_guest_writes_reach_no_one_else_hsw"
"dom0/guest_device.c~s/if ((dom0_render_owner(g->rt) != g->guest || dom0_vgpu_paused(g->rt, g->guest)) \&\&/if ((dom0_render_owner(g->rt) != g->guest || 0) \&\&/~vgpu: new GPU work of a paused owner runs without asking the runtime~guest_faults/every_guest_check_passes_when_the_host_makes_requests_wait"
"dom0/guest_device_audit.c~s/	if (!g->o.hog || dom0_vgpu_info(g->rt, g->guest, \&in) || !in.slots)/	if (1 || dom0_vgpu_info(g->rt, g->guest, \&in) || !in.slots)/~vgpu: the audit never checks that the guest's slots are its own~guest_faults/every_guest_visible_fault_is_caught_skl"
"checks/runner.c~s/		if ((x->start < lo_end \&\& lo < x->end) || (x->start < hi_end \&\& hi < x->end) || in_run) {/		if (0 \&\& ((x->start < lo_end \&\& lo < x->end) || (x->start < hi_end \&\& hi < x->end) || in_run)) {/~guest mode: guest checks claim slices a scanout surface lies in~guest_faults/a_surface_in_the_vgpus_slices_keeps_every_check_off_it"
"dom0/guest_device_host.c~s/		gtt_memset(g->ram\[i\].cpu, 0x6b, 4096);/		;/~vgpu: the guest's memory is not scrubbed while it is away~guest_faults/every_guest_visible_fault_is_caught_hsw"
"dom0/guest_device_host.c~s/	if (g->o.move \&\& !(g->epoch_reads % g->o.move))/	if (0)/~vgpu: the host never moves the guest to the spare model~guest_device_hostile/random_guest_writes_reach_no_one_else_skl"
"dom0/slots.c~s/dom0_copy_in_charged(rt, v, \&st, err)/dom0_copy_in(rt, v, \&st, err)/~an expansion's copy of the running vGPU not charged to R_copy~dom0_slots/the_running_vgpus_expansion_copy_is_charged"
"dom0/guest_device_audit.c~s/		rc = audit_scratch(g, why, n);/		rc = 0 * audit_scratch(g, why, n);/~vgpu: the audit skips the peers' scratch pages~guest_faults/every_guest_visible_fault_is_caught_skl"
"hw/pte.c~s/hi_bits << 4/hi_bits << 3/~gen6/7 PTE: high address bits one place off~check_faults/admission_policies_admitted_before_it_fits"
"hw/pte.c~s/PTE_FORMAT_HSW ? 7 : 8/PTE_FORMAT_HSW ? 8 : 8/~HSW PTE decode takes bit 11 as an address bit~pte/decode_invalid_and_cache_names"
"hw/fence.c~s|f->stride / FENCE_PITCH_UNIT - 1)|f->stride / FENCE_PITCH_UNIT)|g~fence pitch field off by one~check_faults/admission_channel_paused_vgpu_runs"
"hw/fence.c~s|(uint32_t)(f->start + f->size - I965_FENCE_PAGE)|(uint32_t)(f->start + f->size)|~fence end one page late~check_faults/admission_channel_paused_vgpu_runs"
"hw/fence.c~0,/hw_mmio_write32(dev, FENCE_REG_GEN6_LO(i), 0)/s//GTT_OK/~fence programmed without turning it off first~check_faults/a_dom0_check_whose_runtime_cannot_restore_aborts"
"hw/fence.c~s/f->stride % X_TILE_WIDTH/f->stride % FENCE_PITCH_UNIT/~X-tiled stride not checked against 512~cli/bad_input_gets_one_line_and_exit_2"
"hw/raw_access.c~s/GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_EN)/GFX_FLSH_CNTL_GEN6, 0)/~GGTT invalidate writes 0~check_faults/aperture_rw_stuck_pte"
"hw/undo.c~s/^			mmio_put(dev, e, e->old);/			if (e->kind == HW_UNDO_MMIO64) mmio_put(dev, e, e->old);/~undo log skips 32-bit registers~check_faults/fence_disable_linear_stuck_on"
"hw/detect_decode.c~s/ggms ? (1ull << ggms) \* MiB/ggms ? ggms * MiB/~gen8 GGMS decoded like gen6~check_faults/ggtt_guard_page_invalid"
"hw/sim/sim_translate.c~s/return sim->plat->gen < 80 \&\&/return 0 \&\&/~model never swizzles~check_faults/fence_y_detile_corrupt_pitch"
"hw/sim/sim_translate.c~s/(SIM_Y_COLUMN \* SIM_Y_ROWS)/(SIM_Y_COLUMN * 16)/~model Y-tile column of 256 bytes~check_faults/fence_y_detile_corrupt_pitch"
"hw/sim/sim_mmio.c~s/mark_dirty(sim, g, 4);/mark_dirty(sim, g, 4); ggtt_flush(sim);/~model TLB sees PTEs without a flush~check_faults/ggtt_invalidate_dropped_flush_hsw"
"hw/sim/sim_mmio.c~s/mark_dirty(sim, g, n \\* size);/mark_dirty(sim, g, n * size); ggtt_flush(sim);/~model TLB sees a bulk run of PTEs without a flush~tlb/bulk_run_stale_before_invalidate_skl"
"hw/sim/sim_mmio.c~s/b <= (g + len - 1) \\/ SIM_DIRTY_BLOCK/b <= g \\/ SIM_DIRTY_BLOCK/~model flush picks up only the first block of a run~tlb/bulk_run_stale_before_invalidate_skl"
"hw/ggtt.c~s/			gtt_memcpy(update, ptes, n \\* sizeof(\\*ptes));/			(void)update;/~hw_ggtt_write_changed leaves the mirror behind the BAR~linux_backend/only_changed_entries_reach_the_bar_file_skl"
"dom0/phys.c~s/			rt->mirror.chunk_src\\[c\\] = ptes + i;/			(void)0;/~switch: a chunk copied whole still compared against the mirror it left behind~dom0_switch/a_switch_writes_exactly_the_entries_whose_value_differs"
"dom0/guest_gtt.c~s/^	dom0_phys_settle_entry(rt, index);/	(void)0;/~a guest's shadow entry changes under a chunk the switch left recorded against it~dom0_adversarial/dynamic_skl_kbl"
"dom0/slots.c~0,/^	dom0_phys_settle_owner(rt, v->id);/s//	(void)0;/~a resize frees the shadow table chunks are recorded against~check_faults/slot_resize_release_left_mapped"
"dom0/slots_runs.c~s/^	dom0_phys_settle_owner(rt, v->id);/	(void)0;/~slot runs: a new table while chunks are recorded against the old~dom0_adversarial/layout_runs_few_slots_kbl_ivb"
"igt-tests/igt_frontend.c~s/^	if (!f.n_checks) {/	if (0) {/~IGT: a binary under a name that is no suite runs as an empty suite and passes~igt_collection/the_name_a_binary_runs_under_picks_its_suite"
"hw/linux/backend_linux.c~s/				if (p\\[j\\] != held\\[j\\])/				if (1)/~linux backend: entries equal to the mirror stored again~linux_backend/only_changed_entries_reach_the_bar_file_skl"
"dom0/guest_gtt.c~s/	if (dom0_phys_owner(rt, index) == id) {/	if (dom0_phys_owner(rt, index) == id || dom0_phys_owner(rt, index)) {/~guest PTE write reaches the GTT while another vGPU is in it~dom0_adversarial/hostile_guests_hsw"
"dom0/switch.c~s/		if (dom0_phys_owner(rt, first + i) == id) {/		if (dom0_phys_owner(rt, first + i) == id || 1) {/~switch copies nothing~check_faults/admission_channel_paused_vgpu_runs"
"dom0/fence_pool.c~s/	pool.start = nf.pool_gm;/	pool.start = f.start;/~pool fence programmed with the guest's range~check_faults/admission_channel_paused_vgpu_runs"
"dom0/slots.c~s/	gone += dom0_phys_release(rt, base + old_first \* pps, L \* pps, id);/	(void)gone;/~reduction leaves a released slot mapped~check_faults/slot_resize_release_left_mapped"
"dom0/slots_select.c~0,/		if (minimum > count) {/s//		if (minimum >= count) {/~Algorithm 1 expansion ties broken the other way~dom0_slots/occupancy_selector_agrees_with_algorithm1"
"dom0/ladder.c~s/uint8_t \*page = frame >= 0 ? v->mem\[frame\].cpu : v->scratch.cpu;/uint8_t *page = frame < -1 ? NULL : v->scratch.cpu;/~ladder map ignored: guest access hits scratch~check_faults/migration_device_no_rollback"
"dom0/vgpu.c~s/dom0_phys_release(rt, GM_PAGE(v->low_base), GM_PAGE(v->low_size), id)/0/~destroy leaves the vGPU's low entries in the GTT~check_faults/migration_device_no_rollback"
"dom0/vgpu.c~s/	v->scratch = v->mem\[mem_pages\];/	v->scratch = slot_id > 1 \&\& rt->v[1] ? rt->v[1]->scratch : v->mem[mem_pages];/~vGPUs share one scratch page~check_faults/shadow_copy_switch_swapped_copy"
"dom0/fence_pool.c~s/	if (f.size % row) {/	if (0 \&\& f.size % row) {/~guest fence ending inside a tile row accepted~dom0_adversarial/hostile_guests_hsw"
"dom0/slots_select.c~s/(l->S\[K\] > l->M || Q > l->M - l->S\[K\])/(l->S[K] + Q > l->M)/~expansion check wraps for a huge count~dom0_slots/huge_counts_are_refused_without_wrapping"
"dom0/vgpu.c~s/p->at_slot >= l->num_slots || p->high_slots > l->num_slots - p->at_slot/p->at_slot + p->high_slots > l->num_slots/~placement check wraps for a huge slot~dom0_slots/huge_counts_are_refused_without_wrapping"
"env/num.c~s|if (v > (UINT64_MAX - (uint64_t)d) / base)|if (0)|~number grammar wraps past 64 bits~num/refuses_everything_else_without_touching_the_result"
"env/num.c~s/	unsigned base = 10;/	unsigned base = s \&\& s[0] == '0' \&\& s[1] ? 8 : 10;/~number grammar reads a leading zero as octal~num/accepts_the_documented_forms"
"scenario/scenario_guest.c~s/scen_need_range(s, \"fence id\", l->argc > 2 ? l->argv\[2\] : NULL, 0, I915_MAX_NUM_FENCES - 1,/scen_need_range(s, \"fence id\", l->argc > 2 ? l->argv[2] : NULL, 0, UINT64_MAX,/~scenario fence id not range-checked (truncated to 32 bits)~num/scenario_numbers_are_never_truncated_or_wrapped"
"hw/sim/sim_format.c~s/\[PTE_FORMAT_HSW\] = { 4, 0, 2, { { 12, 20, 12 }, { 4, 7, 32 } }/[PTE_FORMAT_HSW] = { 4, 0, 2, { { 12, 20, 12 }, { 4, 8, 32 } }/~model reads Haswell's cache bit 11 as address bit 39~pte/hsw_ellc_entries_reach_their_page"
"hw/detect.c~s/^	if (p->bdsm == BDSM_64) {$/	if (0) {/~gen11+: stolen base read from 0x5c, not the 64-bit BDSM at 0xc0~platforms/*"
"hw/detect_decode.c~s/return (uint64_t)dw1 << 32 |/return (uint64_t)(dw1 \& 0) << 32 |/~gen11+: BDSM high dword dropped~platforms/*"
"hw/scanout.c~s/plane <= p->num_planes;/plane <= 3;/~scanout: gen11+ planes 4-7 never read~platforms/*"
"regs/platform.c~s/GEN11_BAR0, .num_pipes = 4, .num_planes = 7,/GEN11_BAR0, .num_pipes = 3, .num_planes = 7,/~regs: Tiger Lake without pipe D~platforms/*"
"hw/sim/sim_config.c~s/if (sim->plat->bdsm == BDSM_64) {/if (0) {/~model: gen11+ BDSM at 0x5c~platforms/*"
"regs/gtt_pte.h~s/0x0000007ffffff000ull/0x000000fffffff000ull/~regs: gen8 PTE address mask widened to bit 39~pte/gen8_bits_above_38_are_not_address_bits"
"regs/gtt_pte.h~s/#define GEN6_PTE_ADDR_HI_MASK		0x00000ff0u/#define GEN6_PTE_ADDR_HI_MASK		0x000007f0u/~regs: gen6/7 PTE high address field one bit short~pte/with_addr_carries_bit_39_on_gen6_and_gen7"
"regs/fence_reg.h~s/#define GEN6_FENCE_PITCH_MASK		0xfffu/#define GEN6_FENCE_PITCH_MASK		0x3ffu/~regs: fence pitch field two bits short~cli/decode_fence_says_what_no_encoder_writes"
"hw/undo.c~s/			if (mmio_get(dev, e) != e->old)/			if (0)/~restore does not read back what it wrote~runner/a_restore_that_does_not_read_back_is_an_abort_that_ends_the_run"
"checks/runner.c~s/			return i + 1;	\/\* nothing more runs/			(void)0;	\/* nothing more runs/~the run goes on after an abort~runner/a_restore_that_does_not_read_back_is_an_abort_that_ends_the_run"
"checks/check_ctx.c~s/ \&\& gm - first <= pages \* 4096 - len;/;/~claim enforcement lets a check write past its claim~runner/a_check_cannot_touch_below_its_claim_or_beyond_its_fences"
"scenario/scenario_parse.c~s/	if (memchr(buf, '\\\\0', len)) {/	if (0) {/~a NUL byte in a scenario ends it silently~num/scenario_files_that_are_not_text_are_refused"
"hw/journal_write.c~s/bool orig = now == pte_original(dev, p);/bool orig = true;/~journal: aperture bytes written through a test page put back through the original translation~journal/a_crash_anywhere_is_put_back_from_the_journal_alone_hsw"
"hw/journal_write.c~s/^	if (!dev->ptes_unflushed)$/	if (1)/~journal: the PTE in effect read from the register while the TLB is stale~journal/a_crash_anywhere_is_put_back_from_the_journal_alone_hsw"
"hw/journal_write.c~s/^		if (bit(j->pte_map, (size_t)c) || j->pte_copy\[c\])$/		if (0)/~journal: a chunk of PTEs journaled again at every write~journal/a_crash_anywhere_is_put_back_from_the_journal_alone_hsw"
"hw/journal_replay.c~/aperture pages, newest first/{n;s/for (size_t i = n; i-- > 1;) {/for (size_t i = 1; i < n; i++) {/}~journal: aperture pages replayed oldest first~linux_backend/a_journal_replay_puts_every_bar_byte_back"
"hw/journal_replay.c~s/^		if (r.kind == HW_JOURNAL_CFG)$/		if (0)/~journal: config space never replayed~journal/a_crash_anywhere_is_put_back_from_the_journal_alone_hsw"
"hw/journal_scan.c~s/return HW_JOURNAL_REC_HDR + (size_t)hw_journal_get_le(b + 8, 4) > len;/return HW_JOURNAL_REC_HDR + (size_t)hw_journal_get_le(b + 8, 4) >= len;/~journal: a whole header with nothing after it taken for one cut short~journal/only*"
"hw/write_path.c~s/int rc = hw_journal_mmio(dev, off, [48]);/int rc = GTT_OK;/g~a register or PTE written before its original is journaled~journal/a_crash_anywhere_is_put_back_from_the_journal_alone_hsw"
"hw/linux/backend_linux.c~s/^	.cache_sync = lx_cache_sync,$/	.cache_sync = 0 ? lx_cache_sync : NULL,/~linux backend: test pages never flushed around device-side accesses~linux_backend/test_pages_are_flushed_around_every_aperture_access"
"hw/aperture.c~0,/		dev->ops->cache_sync(dev->ctx);/s//		(void)0;/~aperture read: test pages not flushed before the device side reads them~linux_backend/test_pages_are_flushed_around_every_aperture_access"
"hw/linux/backend_linux.c~s/(uint64_t)off + width <= l->bar0_len;/(uint64_t)off + width <= l->bar0_len + 4096;/~linux backend: MMIO past the end of BAR0 not refused~linux_backend/mmio_outside_bar0_or_misaligned_is_refused"
"dom0/runtime.c~s/^	rc = verify(rt, err);$/	rc = verify(rt, err) \&\& 0;/~dom0_fini does not read back what it restored~check_faults/a_dom0_check_whose_runtime_cannot_restore_aborts"
"hw/scanout.c~s/^				if (!(ctl \& PLANE_CTL_ENABLE))$/				if (1)/~scanout: an enabled gen9 plane is never seen~platforms/scanout_covers_pipe_d_and_the_upper_planes"
"checks/runner.c~s/^		restored = false;$/		(void)0;/~a Dom0 check whose runtime could not restore is not an abort~check_faults/a_dom0_check_whose_runtime_cannot_restore_aborts"
"hw/ggtt.c~s/^\t\t\tunlogged_store(dev, first + i, run - i, ptes + i);$/\t\t\t(void)0;/~the mirror changes but the physical GTT is not written~check_faults/admission_channel_paused_vgpu_runs"
"dom0/phys.c~s/\t\t\trt->mirror.chunk_owner\[c\] = j == e ? (uint16_t)owner : 0;/\t\t\trt->mirror.chunk_owner[c] = j == e ? (uint16_t)owner : rt->mirror.chunk_owner[c];/~a chunk partly taken by another vGPU still counts as held: the switch skips it~check_faults/shadow_copy_switch_swapped_copy"
"dom0/policy.c~s/: less_used(rt, v, best);/: less_used(rt, best, v);/~policy: the mid class reduces the busiest vGPU, not the least used~check_faults/slot_policy_classes_ignored"
"dom0/policy.c~s/uint64_t want = 128 \* MiB \/ rt->lay.slot_size;/uint64_t want = 64 * MiB \/ rt->lay.slot_size;/~policy: the high class takes one 64 MiB slot back, not two~check_faults/slot_policy_classes_ignored"
"dom0/policy.c~s/s->rcopy_mpct = copy \/ (t_ms \* s->p.cpus \* 10);/s->rcopy_mpct = copy \/ (t_ms * 10);/~policy: R_copy not divided by the host's CPUs (eq. 1)~dom0_policy/classes_follow_the_formula"
"dom0/policy.c~s/rt->pol.cls != DOM0_CLASS_HIGH ||/rt->pol.cls != DOM0_CLASS_MID ||/~policy: expansions refused in the mid class instead of the high~check_faults/slot_policy_classes_reduces_the_busiest"
"dom0/pvinfo.c~s/reg <= GTTLAB_IF_GM_LAST_GUEST);/reg <= GTTLAB_IF_GM_SLOTS);/~PVINFO: the guest may write the host's status and slot words~check_faults/slot_policy_channel_stale_answer"
"dom0/guest_gtt.c~s/		v->high_mapped -= v->shadow_high\[w.off\] != v->scratch_pte;/		(void)0;/~utilization counts an entry remapped or unmapped twice~dom0_policy/utilization_follows_writes_and_resizes"
"dom0/pvinfo.c~s/	W(GTTLAB_IF_GM_EPOCH)++;/	(void)0;/~PVINFO: a change of the high range does not bump the epoch~dom0_policy/granted_expansion_reaches_pvinfo_shadow_and_physical_gtt"
"dom0/host/serve.c~s/	if (atomic_load(\&s->sleeping))/	if (0 \&\& atomic_load(\&s->sleeping))/~service: the trap never wakes a sleeping thread~dom0_serve/hybrid_sleeps_for_large_requests"
"dom0/host/steal.c~s/waited \* 100000 \/ t;/waited * 1000 \/ t;/~steal meter: W in tenths of a percent, not milli-percent~dom0_steal/rate_is_the_sum_of_waiting_over_time"
"dom0/admission.c~s/if (!best || v->created < best->created)/if (!best || v->created > best->created)/~admission: FIFO admits the newest paused request~check_faults/admission_policies_admitted_before_it_fits"
"dom0/admission.c~s/if (!best || v->created < best->created)/if (!best || v->adm.pause.order < best->adm.pause.order)/~admission: FIFO ranks by pause, not by creation~dom0_admission/fifo_ranks_an_expansion_by_its_vgpus_creation"
"dom0/admission.c~s/	return sr > sv || (sr == sv \&\& r->created > v->created);/	return sr == sv || sr != sv;/~admission: BF's later choice takes the places its earlier choice holds~dom0_admission/bf_keeps_a_freed_slot_for_the_request_it_chose"
"dom0/admission.c~s/ \&\& !DOM0_FAULT(rt, admit_ignore_held))$/ \&\& !DOM0_FAULT(rt, admit_ignore_held) \&\& 0)/~admission: a held place is free for every later choice~dom0_admission/fifo_matches_an_independent_oracle"
"dom0/admission.c~s/^			release_untaken(rt, round);$/			(void)release_untaken;/~admission: an older expansion waits behind a younger create's places~dom0_admission/an_older_expansion_takes_a_slot_a_younger_create_holds"
"dom0/state.c~s/ \&\& !DOM0_FAULT(rt, admit_ignore_held))$/ \&\& !DOM0_FAULT(rt, admit_ignore_held) \&\& 0)/~admission: an expansion takes a slot an earlier create holds~dom0_admission/a_younger_expansion_does_not_take_a_held_slot"
"dom0/migrate_forward.c~s/	for (unsigned i = 0; i < n; i++) {/	for (unsigned i = 0; i < n \&\& 0; i++) {/~migration: the lock's queue is never forwarded~dom0_migrate/steps_in_order_and_queued"
"dom0/migrate_forward.c~s/		return gm - b->high_from + b->high_to;/		return gm;/~migration: a queued high-range write goes to the old range~dom0_migrate/steps_in_order_and_queued"
"dom0/migrate_forward.c~s/		const struct dom0_queued \*e = \&q\[i\];/		const struct dom0_queued *e = \&q[n - 1 - i];/~migration: the queue is forwarded last write first~dom0_migrate/queued_writes_run_in_order_and_the_queue_is_bounded"
"dom0/migrate_queue.c~s/	if (!dom0_vgpu_exists(rt, id) || !rt->v\[id\]->migration.q_n)/	if (1)/~migration: a read does not wait behind the guest's queued writes~dom0_migrate/steps_in_order_and_queued"
"dom0/migrate_queue.c~s/ || len > DOM0_MIGRATE_QUEUE_BYTES - v->migration.q_bytes) {/) {/~migration: the queue's bytes are unbounded~dom0_migrate/queued_writes_run_in_order_and_the_queue_is_bounded"
"dom0/compact.c~s/^		map\[s\] = -1;$/		(void)0;/~compaction: a holder may move into the run it clears~dom0_compact/one_move_clears_a_run"
"dom0/compact.c~s/(best.run < 0 || pl.n < best.n ||/(best.run < 0 || pl.n > best.n ||/~compaction: the run with the most holders cleared~dom0_compact/the_run_with_the_fewest_holders_is_cleared"
"dom0/compact.c~s/		map\[s\] = r \&\& r != self \&\& !dom0_outranks(rt, rt->v\[self\], rt->v\[r\]) ? -1 : 0;/		map[s] = 0 * r * self;/~compaction: a holder moved into a held place of a request ranked first~dom0_compact/a_place_another_request_holds_stays_its_own"
"dom0/compact.c~s/		map\[s\] = r \&\& r != self \&\& !dom0_outranks(rt, rt->v\[self\], rt->v\[r\]) ? -1 : 0;/		map[s] = r \&\& r != self ? -1 : 0;/~compaction: the first request cannot take a later one's held place~dom0_compact/a_place_a_later_request_holds_goes_to_the_first"
"dom0/admission.c~s/(h == best_h \&\& own > best_own) ||/(h == best_h \&\& own > best_own \&\& 0) ||/~admission: a create lets go of held places for an equal run~dom0_admission/fifo_matches_an_independent_oracle"
"dom0/slots_select.c~s/if (minimum > count) {/if (minimum >= count) {/~Algorithm 1: the last of equal expansions taken, not the first~dom0_slots_exhaustive/algorithm1_and_the_selector_on_every_small_layout"
"dom0/compact.c~s/		    !others_in(rt, id, v->first_slot - L, n))/		    others_in(rt, id, v->first_slot - L, n) < 9)/~move to grow: a vGPU never moves~dom0_compact/a_vgpu_moves_to_grow_alone"
"dom0/compact.c~s/		if (p != v->first_slot \&\& !others_in(rt, id, p, n)) {/		if (p != v->first_slot \&\& others_in(rt, id, p, n) < 2) {/~move to grow: a vGPU moves to a run another holds~dom0_compact/a_vgpu_moves_to_grow_alone"
"dom0/rebalance.c~s/		n += v \&\& dom0_vgpu_busy(v) \&\& !dom0_pause_of(v).kind \&\& !dom0_vgpu_locked(v);/		n += v \&\& dom0_vgpu_busy(v);/~rebalance: a paused vGPU counted as load~dom0_rebalance/load_counts_busy_vgpus_that_can_run"
"dom0/rebalance.c~s/		if (best < 0 || l < best_load) {/		if (best < 0 || l > best_load) {/~rebalance: the most loaded device selected~dom0_rebalance/the_least_loaded_device_is_selected"
"dom0/rebalance.c~s/(!best || v->mem_pages < rt->v\[best\]->mem_pages)/(!best || v->mem_pages > rt->v[best]->mem_pages)/~rebalance: the dearest vGPU moved~dom0_rebalance/the_busiest_device_sheds_its_cheapest_vgpu"
"dom0/rebalance.c~s/r.load_from > r.load_to + threshold/r.load_from > r.load_to + threshold * 0/~rebalance: the threshold ignored~dom0_rebalance/the_busiest_device_sheds_its_cheapest_vgpu"
"dom0/rebalance.c~s/		bool ok = p != v->first_slot;/		bool ok = true;/~rebalance: a slot move's target may be its own run~dom0_rebalance/a_slot_move_goes_where_it_shares_least"
"dom0/migrate.c~s/		others += rt->slot_resv\[s\] \&\& rt->slot_resv\[s\] != id;.*$/		;/~migration: a slot move takes a slot a paused create holds~dom0_admission/a_migration_does_not_take_a_held_slot"
"dom0/sched.c~s/return v \&\& v->sched.busy \&\& (!dom0_pause_of(v).kind || DOM0_FAULT(rt, run_paused)) \&\& !dom0_vgpu_locked(v);/return v \&\& v->sched.busy \&\& (!dom0_pause_of(v).kind || rt) \&\& !dom0_vgpu_locked(v);/~admission: the scheduler switches a paused vGPU in~check_faults/admission_channel_paused_vgpu_runs"
"dom0/ops.c~s|pages + dom0_pool_pages_held(v, fence) <= dom0_pool_pages(rt)|pages + dom0_pool_pages_held(v, fence) <= UINT64_MAX|~admission: a fence larger than the pool is paused forever, holding the queue~dom0_admission/a_fence_larger_than_the_pool_is_refused_at_once"
"dom0/ops.c~s|pages + dom0_pool_pages_held(v, fence) <=|pages + 0 * dom0_pool_pages_held(v, fence) <=|~admission: a fence that cannot fit beside its own other fences is paused forever~dom0_admission/a_paused_fence_is_withdrawn_by_its_guest"
"dom0/pvinfo.c~s/return v->pv.any_seq \&\& v->pv.last_seq == seq;/return 0 \&\& v->pv.last_seq == seq;/~PVINFO: a refusal overwrites its request's answer~dom0_policy/an_answer_belongs_to_its_request"
"dom0/migrate.c~s/if (was_owner \&\& dom0_gtt_owner(rt) == 0 \&\& rt->c.switches == switches_at_drain)/if (was_owner || rt->c.switches == switches_at_drain)/~migration: a rollback re-owns the render over another vGPU's entries~dom0_migrate/a_rollback_after_a_switch_leaves_the_render_owner"
"dom0/gm_request.c~s/rt->v\[i\]->pv.req_arrival \&\& !dom0_vgpu_locked(rt->v\[i\]) \&\&/rt->v[i]->pv.req_arrival \&\&/~a migrating vGPU's request is answered between the steps~dom0_migrate/slot_occupancy_holds_with_requests_between_steps"
"scenario/scenario_exec.c~s/nm->on = s->cur_dev;/nm->on = 0;/~scenarios: a vGPU created under 'on D' is filed under the main device~scenarios/a_vgpu_lives_on_the_device_it_was_created_on"
"scenario/scenario_admission.c~s/bool withdrew = in.counters.withdrawn != nm->withdrawn,/bool withdrew = false,/~scenarios: a withdrawn request is reported as admitted~scenarios/a_withdrawal_is_reported_as_one"
"dom0/migrate.c~s/^	if (!DOM0_FAULT(rt, migrate_no_release))$/	if (0)/~migration: the source slots stay mapped after a slot move~check_faults/migration_slots_stale_copy"
"dom0/migrate.c~s/^	if (!DOM0_FAULT(src, migrate_no_rollback))$/	if (0)/~migration: a failed device move leaves its vGPU on the target~check_faults/migration_device_no_rollback"
"hw/scanout.c~s/^		if (p->sprite != SPRITE_NONE)$/		if (0)/~scanout: the gen6-8 sprite of a pipe is never read~runner/every_surface_of_every_platform_is_kept_off"
"checks/runner.c~s/hw_scanout_scan(dev, sc, HW_SCANOUT_MAX, \&found)/hw_scanout_scan(dev, sc, 16, NULL)/~runner: the 17th scanout surface and later left unprotected without a word~runner/every_surface_of_every_platform_is_kept_off"
"hw/detect.c~s/in->edram_mb = in->edram_cap == 0xffffffffu ? 0 : hw_edram_mb(p, in->edram_cap);/in->edram_mb = 0;/~detection: eDRAM never found, a Haswell with eDRAM encoded as one without~platforms/edram_is_detected_and_picks_the_encoder"
"hw/sim/sim_mmio.c~s/^	case HSW_EDRAM_CAP:$/	case HSW_EDRAM_CAP + 4:/~model: HSW_EDRAM_CAP takes writes~platforms/edram_is_detected_and_picks_the_encoder"
"hw/pte.c~s/^	if (in->edram_mb)$/	if (0)/~PTEs for a device with eDRAM encoded as for one without~platforms/edram_is_detected_and_picks_the_encoder"
"regs/platform.c~s/0x163a, 0x163d,/0x163a,/~regs: a Broadwell id i915 lists is unknown~platforms/every_i915_id_picks_its_platform"
"dom0/sched.c~s/uint64_t wait = rt->sched.quantum - v->sched.ran_q;/uint64_t wait = 0;/~scheduler: slot awareness forgets how long each has waited (gScale's, which starves)~dom0_slots/slot_aware_never_starves_a_busy_vgpu"
"hw/ggtt.c~s/(held\[k\] == ptes\[k\]) | (held\[k + 1\] == ptes\[k + 1\])/(held[k + 1] == ptes[k + 1])/~switch: an equal entry at the start of four is written anyway~dom0_switch/a_switch_writes_exactly_the_entries_whose_value_differs"
"dom0/phys.c~s/__builtin_memcpy(o + k, sixteen, sizeof(sixteen));/(void)sixteen;/~switch: the owners of sixteen entries at a time are not recorded~dom0_isolation/random_sequences_skl"
"dom0/phys.c~s/		if (rt->mirror.chunk_owner\\[c\\] \\&\\& rt->mirror.chunk_owner\\[c\\] != owner) {/		if (rt->mirror.chunk_owner[c] != owner) {/~a release passes over a chunk the vGPU holds part of~dom0_isolation/random_sequences_skl"
"dom0/slots_pick.c~s/if (in != INF \&\& in <= out)/if (in != INF \&\& in < out)/~slot runs: the picker prefers the highest slots among equals~dom0_slot_runs/picker_matches_an_exhaustive_search"
"dom0/slots_pick.c~s/\*in = rest + opens + /*in = rest + /~slot runs: a new run costs nothing, so fewer runs do not win~dom0_slot_runs/picker_matches_an_exhaustive_search"
"dom0/slots_runs.c~s/cost\[s\] = rt->slot_occ\[s\] - mine\[s\];/cost[s] = 0;/~slot runs: a reduction gives back any slots, not those shared most~dom0_slot_runs/random_operations_match_the_oracle_shared"
"dom0/slots_runs.c~s/cost\[s\] = 2 \* rt->slot_occ\[s\] + /cost[s] = /~slot runs: an expansion ignores the other holders (Algorithm 1's count)~dom0_slot_runs/random_operations_match_the_oracle_shared"
"dom0/guest_gtt.c~s/		off += run\[i\].n \* pps;/		off += 0;/~slot runs: a second run's writes land in the first run's shadow~dom0_slot_runs/random_operations_match_the_oracle_shared"
"dom0/pvinfo.c~s/	W(GTTLAB_IF_GM_RUNS) = n ? n : 1;/	W(GTTLAB_IF_GM_RUNS) = 1;/~slot runs: PVINFO says one run~dom0_slot_runs/random_operations_match_the_oracle_shared"
"hw/detect_pvinfo.c~s/		if (r->base < prev->base + prev->size)/		if (0)/~guest view: overlapping runs taken as well formed~pvinfo_detect/malformed_runs_are_refused"
"dom0/guest_device.c~s/!dom0_high_holds(g->rt, \&in, gm, len)/!inside(gm, len, in.high_base, in.high_size)/~vgpu: GPU work refused in the guest's second run~guest_faults/every_guest_check_passes_with_the_guests_slots_in_runs"
"checks/session.c~s/	if (s->stage == SESSION_OPEN \&\& !s->totals.abort)/	if (s->stage == SESSION_OPEN)/~session: checks run after an abort~session/nothing_runs_after_an_abort_and_the_journal_ends_unrestored"
"checks/session.c~s/s->dev, !s->totals.abort, err)))/s->dev, true, err)))/~session: the journal is told an aborted device was restored~session/nothing_runs_after_an_abort_and_the_journal_ends_unrestored"
"checks/firmware_policy.c~s/	case 0: return p->setup_mode == 1 ? \"setup-mode\" : \"off\";/	case 0: return \"off\";/~reports: no Platform Key (SetupMode 1) reported as keys enrolled with Secure Boot off~firmware_policy/words_follow_the_two_variables"
"cli/firmware_efivarfs.c~s/fw_var_value(buf + 4, (size_t)n - 4)/fw_var_value(buf, (size_t)n - 4)/~reports: efivarfs attributes read as the SecureBoot value~firmware_policy/efivarfs_files_are_attributes_then_data"
"checks/report_igt.c~s/	if (in->firmware) {/	if (0) {/~reports: results.json without the firmware policy~runner/reports_say_the_firmware_policy"
"env/arena.c~s/	if (e->next \&\& b + size == (uint8_t \*)e->next) {/	if (0) {/~EFI memory: a freed extent never merges with the free one after it~arena/large_blocks_merge_back_into_one_region"
"env/arena.c~s/			rest->size = e->size - \*total;/			rest->size = e->size;/~EFI memory: the rest of a split extent keeps the whole size, so blocks overlap~arena/random_allocations_and_frees_against_an_oracle"
"env/arena.c~s/	if (h->check != (LIVE_MAGIC ^ size) || (!small \&\& !large)/	if ((!small \&\& !large)/~EFI memory: a second free is taken, the block handed out twice~arena/random_allocations_and_frees_against_an_oracle"
"hw/guc_mmio.c~s/			if (st.retries == HW_GUC_MMIO_RETRIES) {/			if (0) {/~VF: GuC's RETRY taken for ever~guc_mmio/retry_sends_again_and_is_bounded"
"hw/guc_mmio.c~s/			if (hdr == 0 \&\& !resent_lost) {/			if (hdr == 0 \&\& (resent_lost || 1)) {/~VF: a lost request sent again for ever~guc_mmio/a_lost_request_is_sent_once_more"
"hw/vf_bootstrap.c~s/	if (data0 \& GUC_KLV_REPLY_MBZ_MASK)/	if (0)/~VF: a KLV reply's must-be-zero bits not checked~vf_bootstrap/klv_replies_are_checked_field_by_field"
"hw/vf_bootstrap.c~s/	if (start > GUC_GGTT_TOP || size > GUC_GGTT_TOP - start)/	if (start > GUC_GGTT_TOP)/~VF: a range that ends past GUC_GGTT_TOP taken~vf_bootstrap/the_range_rules_at_their_edges"
"hw/detect_vf.c~s/	if (v \& .VF_CAP)/	if (0)/~VF: an all-ones VF_CAP_REG read as a VF~vf_detect/vf_cap_reg_bit_0_and_nothing_else"
"hw/vf_mbox.c~s/	if (off == GUC_HOST_INTERRUPT || off == MED_GUC_HOST_INTERRUPT) {/	if (0) {/~VF: the doorbell put back at close, ringing GuC again~vf_mbox/flags_are_put_back_the_doorbell_never"
"dom0/host/steal.c~s/		if (++seen > DOM0_VCPU_SCAN_MAX) {/		if (++seen > 100000) {/~serve: a peer's threads looked through however many it has~dom0_steal/a_peer_of_too_many_threads_is_not_looked_through"
"dom0/pf_ggtt.c~s/	if (spare < DOM0_PF_SPARE_MIN)/	if (0)/~PF: a spare below 64 MiB kept~pf_ggtt/the_fair_share_worked_by_hand"
"hw/sim/sim_vf.c~s/		return false;/		return true;/~VF model: a write to another's PTE takes~vf_faults/every_vf_check_passes_on_a_correct_pf_adlp"
"checks/checks_vf.c~s/if (.(ptes\[i\] \& 1) || (ptes\[i\] \& field))/if (ptes[i] \& field)/~vf-own-ptes: a PTE of the range that reads 0 taken as the VF's~vf_faults/every_fault_is_caught"
"checks/runner.c~s/	if (vf->active \&\& .(k->requires \& REQ_VF))/	if (0)/~VF mode: the whole-GPU checks run on a VF~vf_faults/every_vf_check_passes_on_a_correct_pf_tgl"
"hw/raw_access.c~s/	if (dev->info.vf.active)$/	if (0)/~VF: GFX_FLSH_CNTL written on a VF, not a VF's register~vf_model/opened_it_is_a_vf_with_its_range"
"dom0/pf_provision.c~s/	if (.n || n > most)/	if (!n)/~PF: more VFs than the VFID field holds provisioned~pf_provision/refusals_write_nothing"
"dom0/pf_provision.c~s/(id - 1) \* share;/(id - 1) * share \/ 2;/~PF: each VF's range starts halfway into the previous one~check_faults/pf_provision_overlap"
)

# the sources and the plain build only (the sanitizer, fuzzing, QEMU and LAVA outputs are not needed,
# and make test writes the last two beside this copy)
mkdir "$work/tree" && tar -C "$top" --exclude=./.git --exclude=./build/asan --exclude=./build/fuzz \
	--exclude='./build/qemu*' --exclude='./build/lava*' --exclude=./build/efi -cf - . | tar -C "$work/tree" -xf - ||
	{ echo "mutants: cannot copy the tree"; exit 1; }
# the copy has no .git: it says the version it was copied at, as a source tarball does
[ -f "$work/tree/VERSION" ] || git -C "$top" describe --tags --always --dirty > "$work/tree/VERSION" ||
	{ echo "mutants: $top is no git checkout and has no VERSION file"; exit 1; }
# every mutant relinks the CLIs, the IGT program (one, under a name per suite) and the suite: gold links them faster
# than bfd (the objects are the same; only the link differs), where binutils has it
mk=(make -s -j2)
command -v ld.gold >/dev/null 2>&1 && mk+=(CC="${CC:-cc} -fuse-ld=gold")
# --fail-fast below stops at the first failing test: that proves nothing unless the unmutated suite passes
if ! "${mk[@]}" -C "$work/tree" build/tests/unit >"$work/build.log" 2>&1 ||
   ! (cd "$work/tree" && ./build/tests/unit --jobs 2 >"$work/run.log" 2>&1); then
	echo "mutants: the unmutated suite does not pass; fix that first"
	grep -E '\[FAIL\]|Synthesis' "$work/run.log" "$work/build.log" | head -20
	exit 1
fi
# make test counts this run as the plain suite's: it says so
echo "mutants: the unmutated suite passes: $(grep -m1 -o 'Synthesis: .*' "$work/run.log")"
caught=0
n=0
ran=0
for m in "${mutants[@]}"; do
	IFS='~' read -r file expr what first <<<"$m"
	n=$((n + 1))
	if [ -n "${MUTANTS_ONLY:-}" ] && ! [[ $file =~ $MUTANTS_ONLY ]]; then
		continue
	fi
	ran=$((ran + 1))
	cp "$top/$file" "$work/tree/$file"
	sed -i -e "$expr" "$work/tree/$file"
	if cmp -s "$top/$file" "$work/tree/$file"; then
		echo "mutant $n ($what): the edit did not apply to $file -- fix tests/mutants/mutants.sh"
		exit 1
	fi
	if ! "${mk[@]}" -C "$work/tree" build/tests/unit >"$work/build.log" 2>&1; then
		echo "mutant $n ($what): does not compile -- fix tests/mutants/mutants.sh"; cat "$work/build.log"; exit 1
	fi
	if { [ -z "$first" ] || (cd "$work/tree" && ./build/tests/unit --jobs 2 --fail-fast --filter "$first" >"$work/run.log" 2>&1); } &&
	   (cd "$work/tree" && ./build/tests/unit --jobs 2 --fail-fast >"$work/run.log" 2>&1); then
		echo "mutant $n SURVIVED: $what ($file)"
	else
		first=$(grep -m1 -o '\[FAIL\] [^:]*::[^:]*' "$work/run.log" | sed 's/\[FAIL\] //')
		echo "mutant $n caught: $what -- first failing test: ${first:-crash}"
		caught=$((caught + 1))
	fi
	cp "$top/$file" "$work/tree/$file"
done
echo "mutants: $caught of $ran caught${MUTANTS_ONLY:+ (only those of files matching $MUTANTS_ONLY)}"
[ "$caught" -eq "$ran" ] && [ "$ran" -gt 0 ]
