// SPDX-License-Identifier: GPL-2.0
/*
 * hotpc: a QEMU TCG plugin that counts the guest instructions executed per
 * translation-block start address, for the whole run, and writes
 * "vaddr instructions" lines (hex, decimal) at exit.  Under -icount the
 * guest clock is the instruction count, so this is a profile of exactly
 * what the benchmarks measure.  bench/profile/symbolize.py maps the
 * addresses to kernel functions.
 *
 * Debian ships QEMU with plugin support but without <qemu-plugin.h>; the
 * few declarations used here are those of the plugin ABI, version 1
 * (QEMU 4.2 to 7.2).
 *
 * Usage: qemu-system-x86_64 ... -plugin bench/profile/hotpc.so,out=FILE
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb, void *userdata);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

/* One translation of a block: executions are counted inline by TCG. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t execs;
};

/* Blocks live in chunks that never move: TCG holds pointers to them. */
#define CHUNK 65536
static struct block **chunks;
static size_t nr_blocks, nr_chunks;
static char out_path[4096] = "hotpc.out";

static struct block *new_block(void)
{
	if (nr_blocks == nr_chunks * CHUNK) {
		chunks = realloc(chunks, (nr_chunks + 1) * sizeof(*chunks));
		chunks[nr_chunks] = calloc(CHUNK, sizeof(struct block));
		if (!chunks || !chunks[nr_chunks])
			abort();
		nr_chunks++;
	}
	nr_blocks++;
	return &chunks[(nr_blocks - 1) / CHUNK][(nr_blocks - 1) % CHUNK];
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = new_block();

	(void)id;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->execs, 1);
}

static void write_profile(qemu_plugin_id_t id, void *data)
{
	FILE *f = fopen(out_path, "w");
	size_t i;

	(void)id;
	(void)data;
	if (!f) {
		perror(out_path);
		return;
	}
	for (i = 0; i < nr_blocks; i++) {
		struct block *b = &chunks[i / CHUNK][i % CHUNK];

		if (b->execs)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", b->vaddr, b->execs * b->insns);
	}
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			snprintf(out_path, sizeof(out_path), "%s", argv[i] + 4);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_profile, NULL);
	return 0;
}
