#!/bin/sh
# The 100 000-entry image alone, on the default kernel (a KASAN kernel
# under TCG needs more than 15 minutes for it): listing, contents and
# attributes against its ntfs-3g manifest; no in-tree reference walk.
IMAGES_ONLY=bigdir IMAGES_SKIP=none NO_REFERENCE=1 exec /tests/ntfs-read/images
