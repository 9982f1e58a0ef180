# SPDX-License-Identifier: MIT
# gttlab — one non-recursive Makefile; every object goes under build/.
#   make         build the gttlab CLI and the test binary
#   make run     the main job: gttlab check on the simulated Skylake
#   make test    install missing Debian packages (as root), build, run every test
#   make check-freestanding   the core compiles with no libc headers and links to nothing
#   make structure            the include layers, include circles, file and function sizes (tests/host/check-structure.sh)
#   make docs    the docs' tables of checks and platforms, generated from gttlab (make docs-check: are they?)
#   make mutants              every mutant of tests/mutants/mutants.sh makes the tests fail
#   make igt     build/igt/: the IGT-protocol binaries and test-list.txt; make install PREFIX=...
#   make efi     build/efi/gttlab.efi;  make qemu: boot it in QEMU/OVMF and judge the results
#   make efi-signed  build/efi/signed/gttlab.efi for Secure Boot (SB_KEY, SB_CERT; the snakeoil TEST pair by default)
#   make qemu-shim   Debian's shim, signed alike, starts it as its second stage under enforcing OVMF; no .sbat is refused
#   make qemu-netboot  gttlab.efi over TFTP: reports and journal on a second FAT disk; none is a refusal
#   make asan    the suite, the CLI and the IGT binaries under ASan+UBSan, with the bad-input corpus
#   make fuzz    every libFuzzer harness for FUZZ_SECONDS (default 30)
#   make tsan    the hosted request service's tests under ThreadSanitizer, and the proof it reports a race
#   make bench   every benchmark (bench/): a table and build/bench/results.json; QUICK=1 the small version

# Every rule is this file's own: make's built-in rules (`%: %.o`) would try to link the -include'd .d files.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

CC      ?= gcc
BUILD   := build
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror -Wmissing-prototypes -Wshadow -Wvla
# The version every binary and report says (gttlab --version, the EFI banner, every report): git describe
# of the tree, "-dirty" when it has uncommitted changes, else the VERSION file a source tarball carries.
# It reaches the code through $(BUILD)/gen/gttlab_version.h, rewritten only when the version changes, so
# only env/version.c is built again then.
GTTLAB_VERSION := $(or $(shell git describe --tags --always --dirty 2>/dev/null),$(shell cat VERSION 2>/dev/null))
ifeq ($(GTTLAB_VERSION),)
$(error no version: this tree is no git checkout and has no VERSION file)
endif
GEN     := $(BUILD)/gen
$(shell mkdir -p $(GEN) && printf '\043define GTTLAB_VERSION "%s"\n' '$(GTTLAB_VERSION)' > $(GEN)/gttlab_version.h.new && \
	{ cmp -s $(GEN)/gttlab_version.h.new $(GEN)/gttlab_version.h && rm -f $(GEN)/gttlab_version.h.new || \
	  mv $(GEN)/gttlab_version.h.new $(GEN)/gttlab_version.h; })
CPPFLAGS := -I. -I$(GEN) -MMD -MP
# The shipped hosted build hardens what tests cannot reach (docs/hostile-input.md): a canary on every frame
# with an array, and glibc's checked string and memory calls where the size is known (level 3: dynamic sizes
# too). The sanitizer builds set HARDEN empty: ASan checks the same accesses itself.
HARDEN  ?= -fstack-protector-strong -D_FORTIFY_SOURCE=3
ALL_CFLAGS := -std=c11 $(WARN) $(CFLAGS) $(HARDEN)

# Debian packages the build, the tests and the later front-ends need.
# What building and running gttlab needs (make run); make test wants all of DEB_PACKAGES.
BUILD_PACKAGES := libpci-dev
DEB_PACKAGES := libcriterion-dev libpci-dev pciutils gnu-efi qemu-system-x86 ipxe-qemu ovmf mtools intel-gpu-tools \
	clang libclang-rt-14-dev chromium zlib1g-dev lava-dispatcher tftpd-hpa telnet lava-server lavacli postgresql curl \
	sbsigntool openssl python3 shim-unsigned groff-base man-db binutils

# The freestanding core: no libc beyond stdint/stddef/stdbool/stdarg (design.md). Every
# checks/checks_*.c is a file of checks and is in it (docs/adding.md: a new suite's file needs no line here).
CORE_SRCS := env/fmt.c env/err.c env/num.c env/siphash.c env/version.c env/arena.c regs/platform.c regs/reg_names.c \
	hw/raw_access.c hw/restore_failures.c hw/pte.c \
	hw/journal_format.c hw/journal_write.c hw/journal_scan.c hw/journal_replay.c hw/undo.c hw/write_path.c \
	hw/ggtt.c hw/fence.c hw/aperture.c hw/guc_mmio.c hw/vf_bootstrap.c hw/vf_mbox.c hw/scanout.c hw/detect_decode.c hw/detect_pvinfo.c hw/detect_vf.c hw/detect.c hw/device_spec.c hw/device.c \
	hw/backend_sim.c \
	hw/sim/sim_device.c hw/sim/sim_config.c hw/sim/sim_mmio.c hw/sim/sim_translate.c \
	hw/sim/sim_access.c hw/sim/sim_memory.c hw/sim/sim_trace.c hw/sim/sim_snapshot.c hw/sim/sim_format.c hw/sim/sim_vf.c \
	dom0/runtime.c dom0/state.c dom0/phys.c dom0/vgpu.c dom0/guest_gtt.c dom0/switch.c dom0/ladder.c dom0/fence_pool.c \
	dom0/slots.c dom0/slots_select.c dom0/slots_pick.c dom0/slots_runs.c dom0/sched.c dom0/pvinfo.c dom0/gm_request.c dom0/policy.c dom0/admission.c dom0/ops.c dom0/migrate.c dom0/migrate_queue.c dom0/migrate_forward.c dom0/rebalance.c dom0/compact.c dom0/vgpu_info.c dom0/pf_ggtt.c dom0/pf_provision.c \
	dom0/guest_device.c dom0/guest_device_mmio.c dom0/guest_device_host.c dom0/guest_device_audit.c \
	checks/check_ctx.c checks/check_table.c $(sort $(wildcard checks/checks_*.c)) checks/runner.c checks/session.c checks/report.c checks/report_sink.c checks/report_text.c checks/report_igt.c checks/firmware_policy.c checks/test_faults.c hw/backend_pv.c
# Hosted pieces: the POSIX environment and the linux backend.
POSIX_SRCS := env/env_posix.c hw/linux/backend_linux.c hw/linux/backend_pv_client.c hw/linux/linux_discover.c hw/linux/linux_sysfs.c hw/linux/linux_map.c hw/linux/linux_pages.c \
	hosted/backends.c \
	scenario/scenario_run.c scenario/scenario_args.c scenario/scenario_exec.c scenario/scenario_guest.c scenario/scenario_policy.c scenario/scenario_pf.c scenario/scenario_admission.c scenario/scenario_migrate.c scenario/scenario_devices.c scenario/scenario_history.c \
	scenario/scenario_expect.c scenario/scenario_report.c scenario/scenario_parse.c \
	cli/firmware_efivarfs.c hosted/journal_file.c hosted/text_escape.c hosted/json.c hosted/picture.c hosted/picture_build.c dom0/host/serve.c dom0/host/steal.c dom0/host/ivshmem_server.c dom0/host/pv_answer.c dom0/host/pv_serve.c
CLI_SRCS := cli/main.c cli/cli_util.c \
	cli/cmd_info.c cli/cmd_codec.c cli/cmd_dump.c cli/cmd_snapshot.c \
	cli/cmd_dom0.c cli/cmd_serve.c cli/cmd_check.c cli/cmd_restore.c
TEST_SRCS := $(wildcard tests/*.c tests/env/*.c tests/regs/*.c tests/hw/*.c tests/dom0/*.c tests/checks/*.c tests/scenario/*.c \
	tests/cli/*.c tests/hosted/*.c)

CORE_OBJS  := $(CORE_SRCS:%.c=$(BUILD)/%.o)
POSIX_OBJS := $(POSIX_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS   := $(CLI_SRCS:%.c=$(BUILD)/%.o)
# The test build (dom0/faults.h): the same sources with the deliberate mediator bugs compiled in
# (-DGTTLAB_FAULTS), in build/faults/: its library and CLI, and the Criterion suite linked with them.
# The shipped gttlab, IGT binaries and gttlab.efi are built without: they hold no such code.
FAULTS        := $(BUILD)/faults
FAULTS_LIB    := $(FAULTS)/libgttlab.a
FAULTS_GTTLAB := $(FAULTS)/gttlab
FAULTS_OBJS   := $(CORE_SRCS:%.c=$(FAULTS)/%.o) $(POSIX_SRCS:%.c=$(FAULTS)/%.o)
TEST_OBJS  := $(TEST_SRCS:%.c=$(FAULTS)/%.o)
FREE_OBJS  := $(CORE_SRCS:%.c=$(BUILD)/freestanding/%.o)

# One IGT binary per suite of the check table, in the table's order: gtt_<suite> with '-' as '_'
# (a new suite needs no file of its own: igt-tests/igt_main.c is compiled once per suite). The
# Criterion suite's igt_collection tests check every check is a subtest of its suite's binary.
IGT_SUITES := $(shell for f in $$(sed -n 's/^	&\(checks_[a-z0-9_]*\),$$/\1/p' checks/check_table.c); do \
	sed -n 's/^	{ "[a-z0-9-]*", "\([a-z0-9-]*\)",.*/\1/p' checks/$$f.c; done | awk '!seen[$$0]++')
IGT_BINS := $(addprefix gtt_,$(subst -,_,$(IGT_SUITES)))
IGT_DIR  := $(BUILD)/igt
IGT_PROGS := $(IGT_BINS:%=$(IGT_DIR)/%)
# the front-end every binary links: the IGT protocol, and IGT's device filters read into a device string
IGT_FE := igt_frontend.o igt_device_filter.o
# one program serves every suite (igt-tests/igt_main.c: the name of the file it runs from says the suite); each
# gtt_<suite> of a test root is a hard link to it, so a change to the library relinks one program
IGT_OBJS := $(IGT_FE:%=$(BUILD)/igt-tests/%) $(BUILD)/igt-tests/igt_main.o
IGT_MAIN := $(BUILD)/igt-tests/igt_main
# the test build's IGT binaries (GTTLAB_TEST_FAULT), for the tests that inject a model fault
FAULTS_IGT_PROGS := $(IGT_BINS:%=$(FAULTS)/igt/%)
FAULTS_IGT_OBJS := $(IGT_FE:%=$(FAULTS)/igt-tests/%) $(FAULTS)/igt-tests/igt_main.o
FAULTS_IGT_MAIN := $(FAULTS)/igt-tests/igt_main
PREFIX  ?= /usr/local

LIB     := $(BUILD)/libgttlab.a
GTTLAB  := $(BUILD)/gttlab
UNIT    := $(BUILD)/tests/unit
LDLIBS  := -lpci -pthread

.PHONY: docs docs-check efi-signed qemu-secure-boot qemu-shim qemu-netboot man deb vms asan asan-build all run test test-lane-mutants test-lane-vm deps deps-build deps-efi install-packages check-freestanding mutants efi qemu qemu-selftest igt install clean lava lava-lab structure guest-fake-tree
all: $(GTTLAB) $(UNIT) igt

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(CORE_OBJS) $(POSIX_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FAULTS)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DGTTLAB_FAULTS $(ALL_CFLAGS) -c $< -o $@

$(FAULTS_LIB): $(FAULTS_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FAULTS_GTTLAB): $(CLI_SRCS:%.c=$(FAULTS)/%.o) $(FAULTS_LIB)
	$(CC) $(ALL_CFLAGS) $^ $(LDLIBS) -o $@

$(GTTLAB): $(CLI_OBJS) $(LIB)
	$(CC) $(ALL_CFLAGS) $(CLI_OBJS) $(LIB) $(LDLIBS) -o $@

# a hostile guest of dom0 serve, written from the transport's documentation (tests/vm/hostile-neighbour.sh, make bench)
$(BUILD)/tests/pv_attack: tests/tools/pv_attack.c regs/pv_transport.h regs/pvinfo.h
	@mkdir -p $(@D)
	$(CC) -I. $(ALL_CFLAGS) $< -o $@

# what tests/vm/svg-render.sh judges a screenshot with (zlib)
$(BUILD)/tests/png_stats: tests/tools/png_stats.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< -lz -o $@

$(UNIT): $(TEST_OBJS) $(FAULTS_LIB) $(GTTLAB) $(FAULTS_GTTLAB) igt $(FAULTS_IGT_PROGS) $(BUILD)/tests/png_stats $(BUILD)/tests/pv_attack
	$(CC) $(ALL_CFLAGS) $(TEST_OBJS) $(FAULTS_LIB) $(LDLIBS) -lcriterion -o $@

# ---- the IGT-protocol binaries: build/igt/ is a test root for igt_runner ----
$(IGT_MAIN): $(IGT_OBJS) $(LIB)
	$(CC) $(ALL_CFLAGS) $(IGT_OBJS) $(LIB) $(LDLIBS) -o $@

$(IGT_DIR)/gtt_%: $(IGT_MAIN)
	@mkdir -p $(@D)
	ln -f $< $@

$(FAULTS_IGT_MAIN): $(FAULTS_IGT_OBJS) $(FAULTS_LIB)
	$(CC) $(ALL_CFLAGS) $(FAULTS_IGT_OBJS) $(FAULTS_LIB) $(LDLIBS) -o $@

$(FAULTS)/igt/gtt_%: $(FAULTS_IGT_MAIN)
	@mkdir -p $(@D)
	ln -f $< $@

# test-list.txt is igt_runner's test-root file (the binaries it runs), not a list for --test-list;
# gttlab.testlist is that list: every test in igt@BINARY@SUBTEST[@DYNAMIC] form
$(IGT_DIR)/test-list.txt: Makefile checks/check_table.c $(wildcard checks/checks_*.c)
	@mkdir -p $(@D)
	printf 'TESTLIST\n%s\nEND TESTLIST\n' "$(IGT_BINS)" > $@

$(IGT_DIR)/gttlab.testlist: $(IGT_PROGS) $(IGT_DIR)/test-list.txt $(GTTLAB) igt-tests/make-testlist.sh
	igt-tests/make-testlist.sh $(IGT_DIR) $(GTTLAB) > $@.tmp && mv $@.tmp $@

.SECONDARY: $(IGT_OBJS) $(FAULTS_IGT_OBJS)
igt: $(IGT_PROGS) $(IGT_DIR)/test-list.txt $(IGT_DIR)/gttlab.testlist

# make deb: build/deb/gttlab_VERSION_amd64.deb from debian/ (debhelper), built by dpkg-buildpackage in a
# copy of the tracked tree, its version gttlab --version's (git describe, "-" as "."), then lintian:
# no error allowed. dpkg-buildpackage -us -uc -b in the tree works as well (version 0~git).
DEB_VERSION := 0~git.$(subst -,.,$(GTTLAB_VERSION))
DEB_DIR     := $(BUILD)/deb
DEB         := $(DEB_DIR)/gttlab_$(DEB_VERSION)_amd64.deb
deb:
	@$(MAKE) --no-print-directory install-packages PACKAGES="debhelper lintian dpkg-dev libpci-dev gnu-efi groff-base man-db binutils"
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/gttlab
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C $(DEB_DIR)/gttlab
	echo '$(GTTLAB_VERSION)' > $(DEB_DIR)/gttlab/VERSION
	sed -i '1s/^gttlab (0~git) UNRELEASED;/gttlab ($(DEB_VERSION)) unstable;/' $(DEB_DIR)/gttlab/debian/changelog
	cd $(DEB_DIR)/gttlab && dpkg-buildpackage -us -uc -b -j2 > ../build.log 2>&1 || \
		{ tail -20 ../build.log; echo "deb: dpkg-buildpackage failed (log: $(DEB_DIR)/build.log)"; exit 1; }
	lintian --fail-on error --tag-display-limit 0 $(DEB) | tee $(DEB_DIR)/lintian.log
	@echo "deb: $(DEB) built; lintian found no error ($$(grep -c '^W:' $(DEB_DIR)/lintian.log) warnings)"
	@# the package's files run from the package's paths: unpacked into a scratch root (nothing installed here)
	rm -rf $(DEB_DIR)/root && dpkg -x $(DEB) $(DEB_DIR)/root
	$(DEB_DIR)/root/usr/bin/gttlab --device sim:skl check --run ggtt-pte-readback,fence-readback | grep '^PASS on sim:skl'
	GTTLAB_DEVICE=sim:skl $(DEB_DIR)/root/usr/libexec/gttlab/gtt_fence --run-subtest fence-readback | grep 'Subtest fence-readback: SUCCESS'
	objdump -h $(DEB_DIR)/root/usr/lib/gttlab/efi/gttlab.efi | grep -q ' \.sbat '
	MANWIDTH=80 man -l $(DEB_DIR)/root/usr/share/man/man1/gttlab.1.gz | grep -q 'EXIT STATUS'
	@echo "deb: the unpacked package runs gttlab check and an IGT binary from its paths, and holds gttlab.efi and the man pages"

# the man pages, generated from the program's own --help (cli/man.sh)
MAN_PAGES := $(BUILD)/man/gttlab.1 $(BUILD)/man/gttlab-dom0.1
man: $(MAN_PAGES)
$(MAN_PAGES) &: $(GTTLAB) cli/man.sh
	cli/man.sh $(GTTLAB) $(BUILD)/man

# make install [DESTDIR=...] [PREFIX=/usr/local]: the CLI, the IGT test root (libexec/gttlab, for
# igt_runner), gttlab.efi, the LAVA files, the man pages, bash completion, the licence and the docs
install: $(GTTLAB) igt $(EFI_APP) $(MAN_PAGES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/gttlab $(DESTDIR)$(PREFIX)/lib/gttlab/efi \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/doc/gttlab $(DESTDIR)$(PREFIX)/share/gttlab/lava/devices \
		$(DESTDIR)$(PREFIX)/share/gttlab/lava/lava-test-shell
	install -m 755 $(GTTLAB) $(DESTDIR)$(PREFIX)/bin/gttlab
	install -m 755 $(IGT_PROGS) $(DESTDIR)$(PREFIX)/libexec/gttlab/
	install -m 644 $(IGT_DIR)/test-list.txt $(IGT_DIR)/gttlab.testlist $(DESTDIR)$(PREFIX)/libexec/gttlab/
	install -m 644 $(EFI_APP) $(DESTDIR)$(PREFIX)/lib/gttlab/efi/gttlab.efi
	@# a signed copy only when the lab names its key (SB_KEY on the command line or in the environment):
	@# the default snakeoil key is a test key, never shipped
	$(if $(filter command line environment,$(origin SB_KEY)),$(MAKE) --no-print-directory efi-signed && \
		install -m 644 $(EFI_SIGNED) $(DESTDIR)$(PREFIX)/lib/gttlab/efi/gttlab.signed.efi)
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 cli/gttlab.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/gttlab
	install -m 644 LICENSE README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/gttlab/
	install -m 755 $(filter-out lava/esp.sh,$(wildcard lava/*.sh)) $(DESTDIR)$(PREFIX)/share/gttlab/lava/
	install -m 644 lava/esp.sh lava/*.yaml.in lava/monitors.yaml $(DESTDIR)$(PREFIX)/share/gttlab/lava/
	install -m 644 lava/devices/* $(DESTDIR)$(PREFIX)/share/gttlab/lava/devices/
	install -m 644 lava/lava-test-shell/* $(DESTDIR)$(PREFIX)/share/gttlab/lava/lava-test-shell/

# The same core sources as the EFI build will see them: no hosted headers at all.
FREE_CFLAGS := -std=c11 $(WARN) -O2 -ffreestanding -fno-stack-protector -nostdinc \
	-isystem $(shell $(CC) -print-file-name=include) -I. -I$(GEN)
$(BUILD)/freestanding/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(FREE_CFLAGS) -c $< -o $@

# Undefined symbols may only be what any freestanding C needs from its runtime.
check-freestanding: $(FREE_OBJS)
	@$(LD) -r -o $(BUILD)/freestanding/core.o $(FREE_OBJS)
	@undef=$$(nm -u $(BUILD)/freestanding/core.o | awk 'NF==2{print $$2}' | sort -u | grep -vxE 'mem(cpy|set|move|cmp)' || true); \
	if [ -n "$$undef" ]; then echo "freestanding core needs symbols no EFI build has: $$undef"; exit 1; fi; \
	echo "freestanding core: $(words $(FREE_OBJS)) objects, no libc dependencies"


# The tables the code owns (checks, platforms and their ids, the models), generated into the docs from the program
# (tests/host/doc-tables.sh): make docs writes them, make docs-check fails where a document differs.
docs: $(GTTLAB)
	tests/host/doc-tables.sh $(GTTLAB) --write
docs-check: $(GTTLAB)
	tests/host/doc-tables.sh $(GTTLAB)
	tests/host/bench-doc-figures.sh --self-test
	tests/host/bench-doc-figures.sh

# Install what is missing; a no-op when everything is there. Needs root to install.
deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES)"
deps-build:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_PACKAGES)"
install-packages:
	@missing=""; for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then echo "missing Debian packages:$$missing (run make as root to install them)"; exit 1; fi; \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
			|| { echo "apt-get install failed for:$$missing"; exit 1; }; \
	fi

run: deps-build
	$(MAKE) --no-print-directory $(GTTLAB)
	$(GTTLAB) check

# ---- the EFI application (gnu-efi, x86_64) ----
EFI_INC    := /usr/include/efi
EFI_LIB    := /usr/lib
# Hardened as the hosted build is, without a libc (docs/hostile-input.md): a canary with a global guard
# (efi/stack_guard.c: UEFI has no thread pointer), and every array index the compiler can bound checked,
# trapping (no UBSan runtime here: an invalid-opcode fault, never a write past the array).
EFI_HARDEN := -fstack-protector-strong -mstack-protector-guard=global -fsanitize=bounds -fsanitize-undefined-trap-on-error
EFI_CFLAGS := -std=c11 $(WARN) -O2 -fpic -ffreestanding $(EFI_HARDEN) -fno-stack-check -fshort-wchar \
	-mno-red-zone -maccumulate-outgoing-args -fno-tree-loop-distribute-patterns -DGNU_EFI_USE_MS_ABI \
	-MMD -MP -I. -I$(GEN) -I$(EFI_INC) -I$(EFI_INC)/x86_64
EFI_SRCS   := efi/main.c efi/efi_args.c efi/efi_env.c efi/efi_files.c efi/efi_volume.c efi/efi_journal.c efi/backend_efi.c efi/pciio_sim.c efi/ivshmem_check.c efi/backend_pv_efi.c efi/secure_boot.c efi/shim.c efi/stack_guard.c efi/sbat.c
EFI_OBJS   := $(CORE_SRCS:%.c=$(BUILD)/efi/obj/%.o) $(EFI_SRCS:%.c=$(BUILD)/efi/obj/%.o)
EFI_APP    := $(BUILD)/efi/gttlab.efi

# the test build's application (--fault), for the tests that inject a model fault
FAULTS_EFI_OBJS := $(CORE_SRCS:%.c=$(FAULTS)/efi/obj/%.o) $(EFI_SRCS:%.c=$(FAULTS)/efi/obj/%.o)
FAULTS_EFI_APP  := $(FAULTS)/efi/gttlab.efi
EFI_LINK := $(LD) -nostdlib -znocombreloc -T $(EFI_LIB)/elf_x86_64_efi.lds -shared -Bsymbolic -z defs -L$(EFI_LIB) \
	--wrap=memcpy --wrap=memset $(EFI_LIB)/crt0-efi-x86_64.o
# .sbat: shim's SBAT metadata (efi/sbat.c), without which shim 15.3 and later refuses the application
EFI_COPY := objcopy -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym -j .rel -j .rela -j .rel.* -j .rela.* \
	-j .reloc -j .sbat --target efi-app-x86_64 --subsystem=10

$(BUILD)/efi/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(EFI_CFLAGS) -c $< -o $@

$(BUILD)/efi/gttlab.so: $(EFI_OBJS)
	$(EFI_LINK) $(EFI_OBJS) -lefi -lgnuefi -o $@

$(EFI_APP): $(BUILD)/efi/gttlab.so
	$(EFI_COPY) $< $@

$(FAULTS)/efi/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) -DGTTLAB_FAULTS $(EFI_CFLAGS) -c $< -o $@

$(FAULTS)/efi/gttlab.so: $(FAULTS_EFI_OBJS)
	$(EFI_LINK) $(FAULTS_EFI_OBJS) -lefi -lgnuefi -o $@

$(FAULTS_EFI_APP): $(FAULTS)/efi/gttlab.so
	$(EFI_COPY) $< $@

efi: deps-efi
	$(MAKE) --no-print-directory $(EFI_APP)

deps-efi:
	@$(MAKE) --no-print-directory install-packages PACKAGES="gnu-efi"

# ---- Secure Boot (docs/secure-boot.md): gttlab.efi signed with sbsign, the signature proven with
# sbverify. SB_KEY and SB_CERT are the signing pair; SB_KEY_PASS an encrypted key's passphrase
# (passed in the environment, never on a command line); SB_ENGINE an OpenSSL engine (pkcs11) whose
# key id SB_KEY then is. The default pair is Debian OVMF's snakeoil TEST key: its private half is
# public, only OVMF_VARS_4M.snakeoil.fd trusts it, and no real machine may ever enroll it.
SNAKEOIL    := /usr/share/ovmf/PkKek-1-snakeoil
SB_KEY      ?= $(SNAKEOIL).key
SB_CERT     ?= $(SNAKEOIL).pem
SB_KEY_PASS ?= $(if $(filter $(SNAKEOIL).key,$(SB_KEY)),snakeoil)
SB_ENGINE   ?=
export SB_KEY_PASS SB_ENGINE
EFI_SIGNED  := $(BUILD)/efi/signed/gttlab.efi
SB_PACKAGES := sbsigntool openssl ovmf gnu-efi

# Signed every time it is asked for (a second of work): a changed key or certificate is never missed.
efi-signed:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(SB_PACKAGES)"
	@$(MAKE) --no-print-directory $(EFI_APP)
	efi/sign.sh $(EFI_APP) $(EFI_SIGNED) '$(SB_KEY)' '$(SB_CERT)'

# Under OVMF with Secure Boot enforced and the snakeoil key enrolled: the signed application runs
# on sim:skl and in guest mode, its reports saying "enforcing"; the unsigned one must be refused.
qemu-secure-boot: efi-signed $(GTTLAB)
	tests/vm/qemu-run.sh --secure-boot $(EFI_SIGNED) $(BUILD)/qemu-secure-boot skl vgpu-skl
	tests/vm/qemu-run.sh --secure-boot $(EFI_APP) $(BUILD)/qemu-secure-boot-unsigned refused

# Through shim (docs/secure-boot.md, "Through shim"): Debian's shim (shim-unsigned's shimx64.efi)
# signed with the same key, gttlab.efi as its second stage, under the same enforcing OVMF. The
# application's .sbat section must say its generation and this build's version; booted through
# shim it passes, and the same application without .sbat, signed alike, is refused by shim.
SHIM_UNSIGNED := /usr/lib/shim/shimx64.efi
SHIM_DIR      := $(BUILD)/shim
qemu-shim: efi-signed $(GTTLAB)
	@$(MAKE) --no-print-directory install-packages PACKAGES="shim-unsigned mtools qemu-system-x86"
	@mkdir -p $(SHIM_DIR)
	objcopy -O binary -j .sbat $(EFI_APP) $(SHIM_DIR)/sbat.csv
	@grep -qx 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md' $(SHIM_DIR)/sbat.csv && \
	 grep -q '^gttlab,[1-9][0-9]*,gttlab,gttlab,$(GTTLAB_VERSION),' $(SHIM_DIR)/sbat.csv || \
	 { echo "qemu-shim: $(EFI_APP)'s .sbat section is not gttlab's generation line with version $(GTTLAB_VERSION):"; \
	   cat -A $(SHIM_DIR)/sbat.csv; exit 1; }
	efi/sign.sh $(SHIM_UNSIGNED) $(SHIM_DIR)/shimx64.efi '$(SB_KEY)' '$(SB_CERT)'
	objcopy --remove-section .sbat $(EFI_APP) $(SHIM_DIR)/gttlab-no-sbat.efi
	efi/sign.sh $(SHIM_DIR)/gttlab-no-sbat.efi $(SHIM_DIR)/signed/gttlab-no-sbat.efi '$(SB_KEY)' '$(SB_CERT)'
	GTTLAB_QEMU_SHIM=$(SHIM_DIR)/shimx64.efi tests/vm/qemu-run.sh --secure-boot $(EFI_SIGNED) $(BUILD)/qemu-shim skl
	GTTLAB_QEMU_SHIM=$(SHIM_DIR)/shimx64.efi tests/vm/qemu-run.sh --secure-boot $(SHIM_DIR)/signed/gttlab-no-sbat.efi \
		$(BUILD)/qemu-shim-no-sbat refused

# Over the network (docs/efi.md, "Network boot"): OVMF and the virtio NIC's iPXE fetch gttlab.efi
# over QEMU's TFTP; with a second FAT disk it reads gttlab.cfg there, writes its journal and reports
# there and restores from it after a reset; with none it refuses; --no-journal runs console-only.
qemu-netboot: efi
	@$(MAKE) --no-print-directory install-packages PACKAGES="ovmf mtools qemu-system-x86 ipxe-qemu"
	tests/vm/qemu-netboot.sh $(EFI_APP) $(BUILD)/qemu-netboot

# Boot it in QEMU/OVMF for sim:skl, sim:hsw and sim:tgl, in guest mode for vgpu:sim:skl and
# vgpu:sim:hsw (the guest suite), and once with ivshmem (tests/vm/qemu-run.sh).
qemu: deps
	$(MAKE) --no-print-directory $(EFI_APP) $(GTTLAB)
	tests/vm/qemu-run.sh $(EFI_APP) $(BUILD)/qemu skl hsw tgl hsw-edram vgpu-skl vgpu-hsw vf-adlp
	$(MAKE) --no-print-directory qemu-secure-boot

# The real VM boundary (docs/transport.md): dom0 serve in this host, QEMU guests booting gttlab.efi
# with an ivshmem-doorbell device; three at once (one killed), then a host killed under a guest.
vms: deps
	$(MAKE) --no-print-directory $(EFI_APP) $(GTTLAB)
	tests/vm/vms.sh $(BUILD)

# ---- LAVA (lava/, docs/lava.md): every job template validated, the QEMU job run under lava-run with
# the gate, and the gate proven on a run of the test build's application (build/faults/efi/) with a model fault ----
LAVA_PACKAGES := lava-dispatcher tftpd-hpa telnet qemu-system-x86 ovmf mtools gnu-efi curl
# A whole LAVA lab on this machine (lava/lab.sh, docs/lava.md): lava-server with a PostgreSQL cluster
# of its own, scheduler and API, lava-worker, three devices; four jobs at once through lavacli, gated
# from the API (one with the application's test-only fault must fail, naming its cases), its results
# page screenshot in Chromium. About two minutes. Its whole state is made afresh under build/lava-lab/
# each run, on free ports; everything it started is stopped at the end.
LAVA_LAB_PACKAGES := lava-server lavacli postgresql lava-dispatcher curl chromium zlib1g-dev qemu-system-x86 ovmf mtools gnu-efi
lava-lab:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(LAVA_LAB_PACKAGES)"
	@$(MAKE) --no-print-directory $(EFI_APP) $(FAULTS_EFI_APP) $(BUILD)/tests/png_stats
	lava/lab.sh $(EFI_APP) $(FAULTS_EFI_APP) $(BUILD)/lava-lab

lava: $(EFI_APP) $(FAULTS_EFI_APP) $(GTTLAB) efi-signed
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(LAVA_PACKAGES)"
	lava/run-qemu.sh $(EFI_APP) $(BUILD)/lava --secure-boot $(EFI_SIGNED)
	@if lava/run-qemu.sh $(FAULTS_EFI_APP) $(BUILD)/lava-fault --fault drop-flush > $(BUILD)/lava-fault.out 2>&1; then \
		cat $(BUILD)/lava-fault.out; echo "lava: the gate passed a run whose checks failed"; exit 1; \
	elif ! grep -q 'failing test cases: .*ggtt-invalidate' $(BUILD)/lava-fault.out; then \
		cat $(BUILD)/lava-fault.out; echo "lava: the gate failed the faulty run without naming its failing cases"; exit 1; \
	elif ! grep -qE 'lava-gate:   ggtt-invalidate: [^(]' $(BUILD)/lava-fault.out; then \
		cat $(BUILD)/lava-fault.out; echo "lava: the gate named ggtt-invalidate without the reason its console gave"; exit 1; \
	else echo "lava: the gate fails a run with the test-only fault, naming: $$(grep -o 'failing test cases: .*' $(BUILD)/lava-fault.out | cut -c1-160)"; \
		echo "lava: with the console's reason: $$(grep -m1 -o 'ggtt-invalidate: .*' $(BUILD)/lava-fault.out | cut -c1-200)"; fi

# Mutation check: each mutant breaks one fact in hw/ or the model; the tests must catch it.
mutants: $(UNIT)
	tests/mutants/mutants.sh

# Guest mode on the real-device path: a fake GVT-g guest tree whose resource0 holds a PVINFO page
# (tests/vm/guest-fake-tree.sh): info shows it, check claims only inside the mappable slice and leaves
# every byte it does not own as it was.
guest-fake-tree: $(GTTLAB)
	tests/vm/guest-fake-tree.sh $(BUILD)

# The QEMU pipeline's own failure modes must be caught (tests/vm/qemu-selftest.sh).
qemu-selftest: efi-signed $(GTTLAB)
	@$(MAKE) --no-print-directory $(FAULTS_EFI_APP)
	tests/vm/qemu-selftest.sh $(EFI_APP) $(BUILD)/qemu-selftest $(EFI_SIGNED) $(FAULTS_EFI_APP)

# ---- sanitizers: the CLI, the IGT binaries and the Criterion suite under ASan+UBSan ----
# The same sources and rules in build/asan/ with gcc's AddressSanitizer (leak checking on)
# and UndefinedBehaviorSanitizer, every error fatal. The suite runs from build/asan/root/,
# where build/ is build/asan/ and the source folders (and README.md) are links, so every test that runs
# ./build/gttlab or build/igt/* runs the sanitized binary. Every report of any process
# goes to build/asan/reports/; a single one fails the run.
ASAN_DIR   := $(BUILD)/asan
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined,bounds -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_ENV   = ASAN_OPTIONS=detect_leaks=1:log_path=$(abspath $(ASAN_DIR))/reports/asan \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(abspath $(ASAN_DIR))/reports/ubsan \
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0

asan-build:
	$(MAKE) --no-print-directory -j2 BUILD=$(ASAN_DIR) CFLAGS="$(ASAN_FLAGS)" HARDEN= $(ASAN_DIR)/gttlab $(ASAN_DIR)/tests/unit

asan: asan-build $(UNIT)
	@rm -rf $(ASAN_DIR)/reports $(ASAN_DIR)/root && mkdir -p $(ASAN_DIR)/reports $(ASAN_DIR)/root
	@ln -s .. $(ASAN_DIR)/root/build
	@for d in scenarios regs tests docs README.md; do ln -s $(abspath $$d) $(ASAN_DIR)/root/$$d; done
	cd $(ASAN_DIR)/root && $(ASAN_ENV) ./build/tests/unit --jobs 2
	$(ASAN_ENV) tests/vm/bad-input.sh $(ASAN_DIR)
	@# the plain suite's test that every path out of main frees what it allocated runs the sanitizer CLI: here it exists
	@out=$$(./$(UNIT) --filter 'cli/no_leaks_on_any_path_out_of_main' 2>&1); echo "$$out" | tail -n 1; \
		echo "$$out" | grep -q 'Tested: 1 | Passing: 1 |' || \
		{ echo "$$out"; echo "asan: cli::no_leaks_on_any_path_out_of_main did not run and pass against $(ASAN_DIR)/gttlab"; exit 1; }
	@if ls $(ASAN_DIR)/reports/* >/dev/null 2>&1; then \
		echo "asan: sanitizer reports:"; head -n 40 $(ASAN_DIR)/reports/*; exit 1; fi
	@echo "asan: the Criterion suite, the CLI and the IGT binaries ran with no sanitizer report"

# make test: build everything (-j2), then two lanes at once (these machines have two cores and QEMU
# and the mutants' rebuilds use one each): the structure checks, the mutants, then the sanitizer run,
# beside the QEMU, LAVA and front-end lane, then the fuzzers and the quick bench (each lane waits at
# times: the other takes the core then; the lanes are of about equal length, 25-27 minutes).
# The plain Criterion suite runs whole, once, as the mutants' first step (it must pass before any
# mutant can prove anything); asan runs it again under the sanitizers.
# Then, one after another, kill-restore, whose 'gttlab restore' with no journal named takes every
# journal under /var/lib/gttlab (the Criterion suite opens fake PCI devices with their default journals
# there), and alone: it times an undisturbed run first and kills within it, so a loaded machine
# stretches it and leaves fewer kills inside the run. tests/lib/phase.sh puts the lane in front of
# every line and prints each phase's time.
PHASE := tests/lib/phase.sh
test: deps
	$(MAKE) --no-print-directory -j2 all check-freestanding $(EFI_APP) $(FAULTS_EFI_APP)
	$(PHASE) host $(MAKE) --no-print-directory docs-check
	$(PHASE) host tests/host/shipped-has-no-faults.sh $(BUILD)
	$(PHASE) host tests/host/shipped-hardening.sh $(BUILD)
	$(PHASE) host tests/host/device-grammar.sh $(BUILD)
	$(PHASE) host tests/host/igt-device.sh $(BUILD)
	$(PHASE) host tests/host/man-completion.sh $(BUILD)
	$(PHASE) host tests/host/install-root.sh $(BUILD)
	$(PHASE) host tests/host/bench-part-failure.sh $(BUILD)
	$(PHASE) host $(BENCH) --self-test
	$(MAKE) --no-print-directory -j2 test-lane-mutants test-lane-vm
	$(PHASE) host tests/host/kill-restore.sh $(BUILD) 64
	$(PHASE) host tests/host/serve-kill-restore.sh $(BUILD) 8
	$(PHASE) host $(MAKE) --no-print-directory tsan

test-lane-mutants:
	$(PHASE) mutants $(MAKE) --no-print-directory structure
	$(PHASE) mutants $(MAKE) --no-print-directory mutants
	$(PHASE) mutants $(MAKE) --no-print-directory asan

test-lane-vm:
	$(PHASE) vm tests/vm/qemu-run.sh $(EFI_APP) $(BUILD)/qemu skl hsw tgl hsw-edram vgpu-skl vgpu-hsw vf-adlp no-gpu nothing-ran
	$(PHASE) vm $(MAKE) --no-print-directory qemu-secure-boot
	$(PHASE) vm $(MAKE) --no-print-directory qemu-shim
	$(PHASE) vm $(MAKE) --no-print-directory qemu-netboot
	$(PHASE) vm $(MAKE) --no-print-directory qemu-selftest
	$(PHASE) vm tests/vm/vms.sh $(BUILD)
	$(PHASE) vm tests/vm/hostile-neighbour.sh $(BUILD)
	$(PHASE) vm tests/vm/recipes.sh $(BUILD)/recipes
	$(PHASE) vm tests/vm/igt-conformance.sh $(IGT_DIR)
	$(PHASE) vm tests/vm/igt-conformance-selftest.sh
	$(PHASE) vm tests/vm/scanout-frontends.sh $(BUILD)
	$(PHASE) vm tests/vm/guest-fake-tree.sh $(BUILD)
	$(PHASE) vm tests/vm/svg-render.sh $(BUILD)
	$(PHASE) vm $(MAKE) --no-print-directory lava
	$(PHASE) vm $(MAKE) --no-print-directory lava-lab
	$(PHASE) vm $(MAKE) --no-print-directory deb
	$(PHASE) vm tests/vm/bad-input.sh $(BUILD)
	$(PHASE) vm $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=25
	$(PHASE) vm $(MAKE) --no-print-directory bench QUICK=1

# ---- fuzzing (libFuzzer) ----
# make fuzz: the harnesses of fuzz/ built with clang's libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer over the project's own sources, compiled the same way into
# build/fuzz/ (never the gcc objects of build/), then each run for FUZZ_SECONDS on a scratch
# copy of its seed corpus (fuzz/run.sh), two at a time. Fails on any crash, leak or timeout.
FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 30
FUZZ_DIR      := $(BUILD)/fuzz
FUZZ_NAMES    := num decode scenario mmio_seed sysfs journal pvinfo pv
FUZZ_PROGS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_PACKAGES := clang libclang-rt-14-dev libpci-dev
FUZZ_CFLAGS   := -std=c11 $(WARN) -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -I. -I$(GEN) -MMD -MP
FUZZ_OBJS     := $(CORE_SRCS:%.c=$(FUZZ_DIR)/obj/%.o) $(POSIX_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

# The MMIO seed loader copies 2 MiB per input in a counted loop whose compares teach the fuzzer
# nothing; tracing them cost fuzz_mmio_seed two thirds of its time. Edges are still traced.
$(FUZZ_DIR)/obj/hw/sim/sim_snapshot.o: FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp
$(FUZZ_DIR)/obj/hw/sim/sim_snapshot.o: Makefile
# The same for the vgpu: audit's walk over every GGTT entry, fuzz_pv's oracle at every input's end.
$(FUZZ_DIR)/obj/dom0/guest_device_audit.o: FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp
$(FUZZ_DIR)/obj/dom0/guest_device_audit.o: Makefile

$(FUZZ_DIR)/libgttlab.a: $(FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_DIR)/libgttlab.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_DIR)/libgttlab.a $(LDLIBS) -o $@

.PHONY: fuzz fuzz-build
fuzz-build:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(FUZZ_PACKAGES)"
	@$(MAKE) --no-print-directory -j2 $(FUZZ_PROGS)

fuzz: fuzz-build
	fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_NAMES)

-include $(FUZZ_OBJS:.o=.d) $(FUZZ_PROGS:=.d)
# ---- end of fuzzing ----

# ---- ThreadSanitizer: the hosted request service (dom0/host/) ----
# make tsan: the tests of tests/dom0/test_dom0_serve.c with what they need (the core without its
# checks, env/env_posix.c, dom0/host/) built with clang's ThreadSanitizer into build/tsan/, run
# by tests/tsan/serve_main.c: Criterion's runner does not start under TSan, so the test files
# see tests/tsan/criterion/criterion.h (its assertions, nothing else) as <criterion/criterion.h>
# and the runner walks the tests' table. Any TSan report fails it. Then the proof that it can:
# serve-race, the tests with -DTSAN_SELFTEST_RACE (a counter the hostile guest threads and the
# test's thread share with no lock), must end in a data race report on it (tests/tsan/run.sh).
TSAN_CC       ?= clang
TSAN_DIR      := $(BUILD)/tsan
TSAN_PACKAGES := clang libclang-rt-14-dev
TSAN_CFLAGS   := -std=c11 $(WARN) -O1 -g -fsanitize=thread -fno-omit-frame-pointer -I. -I$(GEN) -MMD -MP
TSAN_TEST_CFLAGS := $(TSAN_CFLAGS) -Itests/tsan -DGTTLAB_TSAN_RUNNER
TSAN_SRCS     := $(filter-out checks/%,$(CORE_SRCS)) env/env_posix.c dom0/host/serve.c dom0/host/steal.c
TSAN_TESTS    := tests/dom0/test_dom0_serve.c tests/helpers.c tests/dom0_helpers.c tests/tsan/serve_main.c
TSAN_OBJS     := $(TSAN_SRCS:%.c=$(TSAN_DIR)/obj/%.o) $(TSAN_TESTS:%.c=$(TSAN_DIR)/obj/%.o)
TSAN_RACE_OBJS := $(filter-out $(TSAN_DIR)/obj/tests/dom0/test_dom0_serve.o,$(TSAN_OBJS)) $(TSAN_DIR)/race/test_dom0_serve.o

$(TSAN_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(TSAN_CC) $(TSAN_CFLAGS) -c $< -o $@

# the shorter stem wins: test files get the assertion header in place of Criterion's
$(TSAN_DIR)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(TSAN_CC) $(TSAN_TEST_CFLAGS) -c $< -o $@

$(TSAN_DIR)/race/test_dom0_serve.o: tests/dom0/test_dom0_serve.c
	@mkdir -p $(@D)
	$(TSAN_CC) $(TSAN_TEST_CFLAGS) -DTSAN_SELFTEST_RACE -c $< -o $@

$(TSAN_DIR)/serve: $(TSAN_OBJS)
	$(TSAN_CC) -fsanitize=thread $^ -pthread -o $@

$(TSAN_DIR)/serve-race: $(TSAN_RACE_OBJS)
	$(TSAN_CC) -fsanitize=thread $^ -pthread -o $@

# -j2: the machine has two cores, and a cold build of build/tsan/ is most of this target's time
.PHONY: tsan
tsan:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(TSAN_PACKAGES)"
	@$(MAKE) --no-print-directory -j2 $(TSAN_DIR)/serve $(TSAN_DIR)/serve-race
	tests/tsan/run.sh $(TSAN_DIR)

-include $(TSAN_OBJS:.o=.d) $(TSAN_DIR)/race/test_dom0_serve.d
# ---- end of ThreadSanitizer ----

# ---- benchmarks (bench/) ----
# make bench: build what the benchmarks need, run them all, print the table (goals beside the
# values, never asserted) and write build/bench/results.json and the generated report,
# docs/bench-results.md (the README's figures: never copied by hand), naming the tree measured.
# QUICK=1 runs the small version, its report in build/bench/results.md (make test runs it once,
# only to prove the benchmarks work). The firmware-floor application
# for P5 is built with the same gnu-efi flags, linker script and objcopy sections as gttlab.efi.
BENCH_PACKAGES := libpci-dev gnu-efi qemu-system-x86 ovmf mtools
BENCH_SRCS  := $(wildcard bench/*.c)
BENCH_OBJS  := $(BENCH_SRCS:%.c=$(BUILD)/%.o)
BENCH       := $(BUILD)/bench/bench
# P3's store floor: its loop on a 64-byte boundary, so that its cost does not move with the code around it
$(BUILD)/bench/p3_measure.o: CFLAGS += -falign-loops=64
BENCH_FLOOR := $(BUILD)/bench/efi-floor.efi
QUICK ?=

all: $(BENCH)
$(BENCH): $(BENCH_OBJS) $(LIB)
	$(CC) $(ALL_CFLAGS) $(BENCH_OBJS) $(LIB) $(LDLIBS) -lm -o $@

$(BUILD)/bench/efi-floor.so: $(BUILD)/efi/obj/bench/efi/floor.o $(BUILD)/efi/obj/efi/stack_guard.o
	@mkdir -p $(@D)
	$(LD) -nostdlib -znocombreloc -T $(EFI_LIB)/elf_x86_64_efi.lds -shared -Bsymbolic -z defs -L$(EFI_LIB) \
		--wrap=memcpy --wrap=memset \
		$(EFI_LIB)/crt0-efi-x86_64.o $^ -lefi -lgnuefi -o $@

$(BENCH_FLOOR): $(BUILD)/bench/efi-floor.so
	objcopy -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym -j .rel -j .rela -j .rel.* -j .rela.* \
		-j .reloc --target efi-app-x86_64 --subsystem=10 $< $@

.PHONY: bench
bench:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BENCH_PACKAGES)"
	@$(MAKE) --no-print-directory $(GTTLAB) $(BENCH) $(EFI_APP) $(BENCH_FLOOR) $(BUILD)/tests/pv_attack
	$(BENCH) $(if $(filter-out 0,$(QUICK)),--quick) --json $(BUILD)/bench/results.json --gttlab $(GTTLAB) \
		--attack $(BUILD)/tests/pv_attack \
		--efi-app $(EFI_APP) --efi-floor $(BENCH_FLOOR) --efi-runner bench/run-efi.sh --work $(BUILD)/bench/qemu \
		--markdown $(if $(filter-out 0,$(QUICK)),$(BUILD)/bench/results.md,docs/bench-results.md) \
		--tree "$$(git describe --always --dirty 2>/dev/null || echo unknown)"

-include $(BENCH_OBJS:.o=.d) $(BUILD)/efi/obj/bench/efi/floor.d
# ---- end of benchmarks ----

# The structure of the tree (tests/host/check-structure.sh): includes only down the layers of
# design.md, no circle of includes inside a room, no product file over 600 lines and no
# product function over 80; and of its calls (tests/host/check-calls.sh, from the objects of the
# hosted programs and of the EFI application): every call down the same layers, no files that
# call each other round a circle; and of the Dom0 runtime's state (tests/host/check-state.sh): a
# part's state touched by its owning files only. Each checker proves itself first on a planted tree. Then every
# citation of docs/hardware.md names one of its sections (tests/host/check-citations.sh, self-tested too).
STRUCTURE_OBJS := $(CORE_OBJS) $(POSIX_OBJS) $(CLI_OBJS) $(IGT_OBJS) $(BENCH_OBJS)
structure:
	@$(MAKE) --no-print-directory deps-efi
	@$(MAKE) --no-print-directory -j2 $(STRUCTURE_OBJS) $(EFI_OBJS)
	tests/host/check-structure.sh --self-test
	tests/host/check-structure.sh
	tests/host/check-calls.sh --self-test
	@tests/host/check-calls.sh $(STRUCTURE_OBJS)
	@tests/host/check-calls.sh $(EFI_OBJS)
	tests/host/check-state.sh --self-test
	tests/host/check-state.sh
	tests/host/check-citations.sh --self-test
	tests/host/check-license.sh --self-test
	tests/host/check-license.sh

clean:
	rm -rf $(BUILD)

-include $(IGT_OBJS:.o=.d) $(FAULTS_IGT_OBJS:.o=.d) $(EFI_OBJS:.o=.d) $(FAULTS_EFI_OBJS:.o=.d) $(CORE_OBJS:.o=.d) $(POSIX_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(FREE_OBJS:.o=.d) $(FAULTS_OBJS:.o=.d) $(CLI_SRCS:%.c=$(FAULTS)/%.d)
