# Full baseline plan (run by hand; results committed under lab/results/baseline/).
# No DDL. sysbench oltp_read_write, rand-type special, 8 threads on the 2-core VM.
#  - data set A: 8 tables x 1M rows (~1.9 GB of InnoDB data + index) at pool sizes 256 MiB, 512 MiB,
#    1 GiB, 2 GiB, 4 GiB. The "fit" points are 256M, 1G and 4G (TPS and hit ratio at a few pool
#    sizes for one data size); 512M and 2G are kept back as predictions.
#  - data set B: 8 tables x 500k rows (~1 GB) at 256 MiB, 512 MiB, 1 GiB: predictions.
# Each point: a cold restart at that pool size, a 90 s warm-up, then 150 s measured.
# lab-timeout: 5400

THREADS=8
: "${LAB_CACHE:=/var/tmp/ddlsim-lab-cache}"

load_data 8 1000000
for pool in 256M 512M 1G 2G 4G; do
  case "$pool" in 256M | 1G | 4G) role=fit ;; *) role=predict ;; esac
  pool_start "$pool"
  warmup 90
  run_baseline "d8x1M-$pool" "$role" 150
done

# Data set B: a fresh datadir.
server_stop
server_init
server_start 1G
load_data 8 500000
for pool in 256M 512M 1G; do
  pool_start "$pool"
  warmup 90
  run_baseline "d8x500k-$pool" predict 150
done
