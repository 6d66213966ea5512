# probecc from the tree this layer is part of (conf/layer.conf), as a
# git repository: its version is the tree's (git describe, as probecc
# --version says).  A release tarball's recipe is make dist's
# probecc_VERSION.bb, put beside this one.
require probecc.inc

SRC_URI = "git://${PROBECC_TREE};protocol=file;branch=main"
SRCREV = "${AUTOREV}"
PV = "0+git"
S = "${WORKDIR}/git"
