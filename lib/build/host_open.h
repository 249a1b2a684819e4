/*
 * Opening files of the host for mkfs --rootdir, both to scan the tree
 * (tree.c) and to read its files (source.c): apart from both so that the
 * reader, which finds files through the scanned tree, is not called back.
 */
#ifndef F2FS_LIB_HOST_OPEN_H
#define F2FS_LIB_HOST_OPEN_H

/*
 * openat with O_NOATIME (reading the tree must not change the atimes the
 * next run copies), retried without it where it is refused (EPERM: a file
 * we do not own, without CAP_FOWNER).
 */
int host_openat(int dirfd, const char *path, int flags);

#endif
