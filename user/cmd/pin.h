/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * pin.h - the run's --pin (pin.c): the maps and programs left pinned in
 * bpffs for `follow`, `status` and `unpin`.
 */
#ifndef HK_USER_PIN_H
#define HK_USER_PIN_H

#include <stddef.h>
#include "kernel/loader.h"

/* --pin before the load (pin.c): bpffs mounted if none, the pin directory
 * free; 0, or -1 after one line saying why not. */
int hk_run__pin_before(void);
/* ... and after it: the directory made, checked and filled; 0, or -1 with
 * why in err and nothing left pinned. */
int hk_run__pin(struct hk_loader *l, char *err, size_t err_len);

#endif /* HK_USER_PIN_H */
