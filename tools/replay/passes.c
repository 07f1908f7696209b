// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * From a parsed log to a checked tree: two discovery replays build the
 * tree the log needs (the second can complete directory listings, every
 * name a call touches being in the tree by then), then a clean replay on
 * a fresh VFS from that tree is the check.
 */
#include <string.h>

#include "tools/cli.h"
#include "tools/replay/replay.h"
#include "vfs/vfs.h"

int rp_discover_and_check(const struct vfs_config *cfg, struct rp_log *log, struct rp_tree *tree,
			  bool verbose, struct rp_result *disc, struct rp_result *res)
{
	struct vfs *vfs;
	int ret = 0;

	rp_tree_init(tree);
	rp_tree_mkpath(tree, log->cwd, 0);
	rp_prescan_fds(log, tree);
	vfs = cli_vfs_new("replay", cfg);
	if (!vfs)
		return -1;
	if (rp_replay(vfs, log, tree, RP_DISCOVER, verbose, disc))
		ret = 1;
	if (cli_vfs_destroy("replay", vfs))
		ret = 1;
	/* again from that tree: now listings can be completed */
	vfs = ret ? NULL : cli_vfs_new("replay", cfg);
	if (vfs) {
		unsigned long repairs = disc->repairs;

		rp_result_free(disc);
		if (rp_replay(vfs, log, tree, RP_DISCOVER_LISTINGS, verbose, disc))
			ret = 1;
		disc->repairs += repairs;
		if (cli_vfs_destroy("replay", vfs))
			ret = 1;
	}

	/* the check: a fresh VFS from that tree, no repairs */
	vfs = ret ? NULL : cli_vfs_new("replay", cfg);
	if (vfs) {
		if (rp_replay(vfs, log, tree, RP_CHECK, false, res))
			ret = 1;
		if (cli_vfs_destroy("replay", vfs))
			ret = 1;
	} else {
		memset(res, 0, sizeof(*res));
		ret = 1;
	}
	return ret;
}
