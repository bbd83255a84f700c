# Sampled kernel stacks, for the benches (sourced): a profile that does
# not depend on perf's sampling, which TCG distorts (docs/performance.md).
#
# stacks_sample NAME N: while a job runs, N samples of both CPUs' kernel
# stacks (sysrq-l, every 50 ms), then the functions by share of samples,
# self (the interrupted RIP) and inclusive (on the stack), and the most
# frequent stacks (their innermost 15 frames). The CPU that
# ran the trigger (its stack holds sysrq) is left out; idle CPUs count.
# The traces go to $OUT/stacks.NAME; the kernel log before them goes to
# the output (the harness checks it for warnings), the traces do not
# (each is a "Call Trace"; STACKS_RAW=1 prints them, renamed). Call
# `dmesg -n 1` once first, so that the traces stay off the serial console.
stacks_sample() {
	local name=$1 max=$2 n=0

	dmesg -c
	while [ $n -lt "$max" ]; do
		echo l > /proc/sysrq-trigger
		sleep 0.05
		n=$((n + 1))
	done
	dmesg -c > $OUT/stacks.$name
	# STACKS_RAW=1: the traces themselves too, each line after "raw: "
	[ -n "$STACKS_RAW" ] && sed -e 's/^/raw: /' -e 's/Call Trace/trace/' $OUT/stacks.$name
	awk -v name="$name" '
	/NMI backtrace for cpu/ { inb = 1; rip = ""; nf = 0; sys = 0; next }
	inb && /RIP: 0010:/ && rip == "" { rip = $0; sub(/.*RIP: 0010:/, "", rip); sub(/\+.*/, "", rip) }
	inb && /sysrq/ { sys = 1 }
	inb && /^\[ *[0-9.]+\]  [A-Za-z_0-9.]+\+0x/ { f = $3; sub(/\+.*/, "", f); fr[nf++] = f }
	/<\/NMI>/ { nf = 0 }
	inb && /<\/TASK>/ {
		if (!sys && rip != "") {
			self[rip]++; tot++
			c = rip
			for (i = 0; i < nf && i < 14; i++) c = c " < " fr[i]
			chain[c]++
			for (i = 0; i < nf; i++) if (!seen[fr[i]]++) incl[fr[i]]++
			delete seen
		}
		inb = 0
	}
	END {
		printf "   %s: %d samples\n", name, tot
		if (!tot) exit
		cmd = "sort -k3 -rn | head -n 15"
		for (r in self) printf "   %s self %5.1f%% %s\n", name, 100 * self[r] / tot, r | cmd
		close(cmd)
		cmd = "sort -k3 -rn | head -n 40"
		for (r in incl) printf "   %s incl %5.1f%% %s\n", name, 100 * incl[r] / tot, r | cmd
		close(cmd)
		cmd = "sort -k3 -rn | head -n 8"
		for (r in chain) printf "   %s chain %5.1f%% %s\n", name, 100 * chain[r] / tot, r | cmd
		close(cmd)
	}' $OUT/stacks.$name
}
