# The client-CPU probe on its own (probe/clientcpu/probe.sh): data set A in a 4G pool that
# holds it, prewarmed, then one cell per statement kind. About 4 minutes plus the load.
# lab-timeout: 1800
. "$LAB_DIR/lib/cell.sh"
load_data 8 1000000
pool_start 4G
cell_prewarm
. "$LAB_DIR/probe/clientcpu/probe.sh"
