// SPDX-License-Identifier: GPL-2.0
/* The RFC 5664 XDR (a pure file, docs/sources.md), built into objlayoutdriver.ko. */
#include "../objlayout_xdr.c"
