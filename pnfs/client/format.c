// SPDX-License-Identifier: GPL-2.0
/*
 * exofs's on-disk format rules (a pure file, docs/sources.md), built into
 * objlayoutdriver.ko to check a store's superblock object.
 */
#include "../../exofs/format.c"
