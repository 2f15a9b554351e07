# Device call 5 (nvidia-h200): memcheck of nlmeans/cuda_auto_anderson2021's
# exact path at 1920x1080 over the check matrix's parameter sets, gray and
# RGB: which one call 3's check lost the GPU on.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
fl=.device-build/filterlab
export LD_LIBRARY_PATH=$PWD/.device-build/lib
cs=/usr/local/cuda/bin/compute-sanitizer
python3 -c "import random; r=random.Random(3); open('/tmp/n1.pgm','wb').write(b'P5\n1920 1080\n255\n'+r.randbytes(1920*1080)); open('/tmp/n3.ppm','wb').write(b'P6\n1920 1080\n255\n'+r.randbytes(1920*1080*3))"
for params in "-p patch=1 -p search=3 -p h=5" "-p patch=0 -p search=2 -p h=20" "-p patch=5 -p search=12 -p h=15" ""; do
    for img in /tmp/n1.pgm /tmp/n3.ppm; do
        out=$($cs --tool memcheck --print-limit 2 $fl run --filter nlmeans --variant cuda_auto_anderson2021 $params \
              -i $img -o /tmp/o.${img##*.} --whole-image --quiet 2>&1)
        echo "[$params] $img: $(grep -E 'ERROR SUMMARY' <<<"$out") $(grep -m 2 -E 'Invalid|^=========     at ' <<<"$out" | tr '\n' ' ')"
    done
done
