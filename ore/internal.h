/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal declarations of ore.ko, in sections named after the file that
 * defines them. Every file that prints defines pr_fmt() as
 * KBUILD_MODNAME ": " before its includes, so messages read "ore: ...".
 */
#ifndef _ORE_INTERNAL_H
#define _ORE_INTERNAL_H

#include <ore/ore.h>

/* main.c */
extern struct workqueue_struct *ore_wq;
extern struct workqueue_struct *ore_obj_wq;
extern struct workqueue_struct *ore_csum_wq;
extern bool ore_raid6_rmw;

/* write.c */
void ore_write_finish_init(void);

/* pages.c */
struct page *ore_page_get(gfp_t gfp);
void ore_page_put(struct page *page);
unsigned int ore_page_get_bulk(struct page **pages, unsigned int n, gfp_t gfp);
void ore_page_put_list(struct list_head *list);
int ore_pages_init(void);
void ore_pages_exit(void);

/* raid.c */
void ore_xor_pages(void *dst, void **srcs, unsigned int count,
		   unsigned int bytes);
void ore_gen_pq(void **ptrs, unsigned int data, unsigned int bytes);
bool ore_pq_rmw_ok(void);
int ore_recover_pages(const struct ore_layout *layout, void **ptrs,
		      unsigned int bytes, int faila, int failb);

/* file_csum.c */
u32 ore_csum_bvec_block(u32 type, const struct bio_vec *bv, u32 off);
u64 ore_file_csum_span(u64 offset, u32 len, u32 *nents);
void ore_file_csum_compute(u32 type, const struct ore_store_io *sio,
			   __le32 *ents, u32 nents);
int ore_file_csum_verify(u32 type, const struct ore_store_io *sio,
			 __le32 *ents, u32 nents);
int ore_file_csum_read(struct file *cf, u64 first, __le32 *ents, u32 nents);
int ore_file_csum_write(struct file *cf, u64 first, const __le32 *ents,
			u32 nents, bool sync);
int ore_file_csum_clear(struct file *cf, u64 offset, u64 len);
int ore_file_csum_cut(struct file *cf, u64 size);
int ore_file_csum_head_get(struct file *file, __le32 *head);
int ore_file_csum_head_set(struct file *file, const __le32 *head, bool sync);

/* store_bdev.c */
extern unsigned int ore_csum_inline_max;

/* store.c */
bool ore_store_io_start(struct ore_store_io *sio);
void ore_store_io_done(struct ore_store_io *sio, int error);

#endif /* _ORE_INTERNAL_H */
