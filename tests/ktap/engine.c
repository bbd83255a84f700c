// SPDX-License-Identifier: GPL-2.0
/*
 * Engine cases of ore_test.ko: ore_read()/ore_write() over file and block
 * stores for every RAID level, parity checked on the components.
 */
#define pr_fmt(fmt) "ore_test: " fmt

#include <linux/kernel.h>

#include "ore_test.h"

static void ot_engine_pending(struct ot_ctx *ctx)
{
	ot_skip(ctx, "engine cases not written yet");
}

const struct ot_case ot_engine_cases[] = {
	{ "engine", ot_engine_pending },
};

const unsigned int ot_nr_engine_cases = ARRAY_SIZE(ot_engine_cases);
