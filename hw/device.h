/* SPDX-License-Identifier: MIT */
/*
 * The device handle, opened and closed: a backend chosen by the device
 * string, the crash journal attached when asked, the device detected. The
 * top of hw/'s layers, and the header a user of hw/ starts from: it brings
 * the handle's state (hw/handle.h), backend access (hw/raw_access.h), the
 * journaled, undo-logged write path (hw/write_path.h, hw/undo.h) and
 * detection (hw/detect.h). Files of hw/ below it include those instead.
 */
#ifndef HW_DEVICE_H
#define HW_DEVICE_H

#include "hw/backend.h"
#include "hw/detect.h"
#include "hw/handle.h"
#include "hw/raw_access.h"
#include "hw/undo.h"
#include "hw/write_path.h"
#include "regs/platform.h"

/*
 * Open a device from its string ("sim", "sim:hsw", "pci:0000:00:02.0",
 * "auto"; the grammar is hw/device_spec.h) with one of the given backends,
 * and detect what it is. On error nothing has been written to the device.
 */
int hw_open(const struct gtt_env *env, const char *spec, const struct hw_backend_factory *const *backends,
	    size_t n_backends, const struct hw_open_opts *opts, struct hw_device **out,
	    struct gtt_err *err);
/* The same, for a string the caller has parsed already (hw_device_spec_parse). */
int hw_open_spec(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_backend_factory *const *backends,
		 size_t n_backends, const struct hw_open_opts *opts, struct hw_device **out, struct gtt_err *err);

/*
 * What the device is, in the words every report uses: "simulated" (the
 * model, through whichever backend), "vGPU on the simulated device" (vgpu:),
 * "pv guest" (a vGPU dom0 serve serves, whatever its host is),
 * "hardware" (a real GPU), with ", GVT-g guest" when its PVINFO page put
 * gttlab in guest mode on hardware, or ", SR-IOV VF" when VF_CAP_REG said
 * it is a virtual function.
 */
const char *hw_device_kind(const struct hw_device *dev);

/*
 * Where the device is: for real hardware the string that opens it again, what auto found
 * (pci:SSSS:BB:DD.F, efi:...), when the backend can say it; else the device string. BUF holds N bytes.
 */
const char *hw_device_where(const struct hw_device *dev, char *buf, size_t n);
/* Real hardware's PCI device id (vendor 0x8086), for the reports; 0 for the model, vGPUs and pv guests. */
uint16_t hw_device_pci_id(const struct hw_device *dev);

/* Close the device; the undo log is NOT replayed (call hw_undo_restore first); a journal is detached. */
void hw_close(struct hw_device *dev);

#endif
