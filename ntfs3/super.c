// SPDX-License-Identifier: GPL-2.0
/*
 * ntfs3: NTFS read-write driver, out-of-tree.
 *
 * This is the module skeleton: it registers the "ntfs3" filesystem type so
 * that the build, packaging and test pipeline is exercised end to end, and
 * refuses every mount with a message until the read path lands.
 */

#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/module.h>

/**
 * ntfs3_get_tree() - refuse the mount: no on-disk support yet
 * @fc: filesystem context of the mount attempt
 *
 * Return: -EOPNOTSUPP, with a message in the kernel log and in @fc's log.
 */
static int ntfs3_get_tree(struct fs_context *fc)
{
	errorfc(fc, "read support not implemented yet, mount refused");
	return -EOPNOTSUPP;
}

static const struct fs_context_operations ntfs3_context_ops = {
	.get_tree = ntfs3_get_tree,
};

static int ntfs3_init_fs_context(struct fs_context *fc)
{
	fc->ops = &ntfs3_context_ops;
	return 0;
}

static struct file_system_type ntfs3_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "ntfs3",
	.init_fs_context	= ntfs3_init_fs_context,
	.kill_sb		= kill_block_super,
	.fs_flags		= FS_REQUIRES_DEV,
};

static int __init ntfs3_init(void)
{
	int err = register_filesystem(&ntfs3_fs_type);

	if (!err)
		pr_info("ntfs3: out-of-tree driver loaded (skeleton)\n");
	return err;
}

static void __exit ntfs3_exit(void)
{
	unregister_filesystem(&ntfs3_fs_type);
}

module_init(ntfs3_init);
module_exit(ntfs3_exit);

MODULE_DESCRIPTION("NTFS read-write filesystem (out-of-tree)");
MODULE_LICENSE("GPL");
MODULE_ALIAS_FS("ntfs3");
