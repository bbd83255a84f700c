/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/oreblk: what oreblk.c (superblocks, checks, the control device)
 * gives the commands in oreblk_scan.c (assemble --scan, incremental,
 * monitor), without the on-disk header.
 */
#ifndef OREBLK_CMDS_H
#define OREBLK_CMDS_H

#include <stddef.h>
#include <stdint.h>

#define OREBLK_CMDS_UUID_LEN	16
#define OREBLK_CMDS_INDEX_ANY	(-1)	/* the lowest free /dev/oreblkN */

/* What scanning needs from one member's superblock. */
struct oreblk_member_info {
	uint8_t array_uuid[OREBLK_CMDS_UUID_LEN];
	uint8_t member_uuid[OREBLK_CMDS_UUID_LEN];
	uint32_t member_index;
	uint32_t nr_members;
	uint64_t events;
	uint64_t faulty_map;
	char name[33];
};

/* /dev/oreblk-control */
extern const char oreblk_control_path[];

/*
 * Read and check @path's superblock as `oreblk examine` does.
 * Return: 0 a valid member, 1 no oreblk superblock, -1 a damaged one or
 * an I/O error (@why says which).
 */
int oreblk_read_member(const char *path, struct oreblk_member_info *mi,
		       char *why, size_t whylen);
/* The checks of `oreblk assemble`. Return: 0 the members can start. */
int oreblk_check_members(char **paths, int n);
/* Start the array (@index or OREBLK_CMDS_INDEX_ANY). Return: 0 started. */
int oreblk_start_array(int index, char **paths, int n);
/* 36 characters and a NUL into @buf. */
void oreblk_fmt_uuid(const uint8_t *u, char *buf);

/* oreblk_scan.c */
/* Take /run/oreblk.lock (flock): the fd to close, or -1. */
int oreblk_lock(void);
int oreblk_cmd_assemble_scan(int argc, char **argv);
int oreblk_cmd_incremental(int argc, char **argv);
int oreblk_cmd_monitor(int argc, char **argv);

#endif
