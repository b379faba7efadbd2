/**
 * The CPU speed probe's process (cpu-speed.ts starts it, pinned to the server's CPU): a fixed piece
 * of work every 200 ms, timed by this process's own CPU time, one line per sample on stdout:
 * "<epoch ms> <CPU microseconds>". Plain JavaScript: it starts in a few tens of ms without a loader.
 *
 * CPU time, not wall time: when the server holds the core the probe waits for it, and that wait is
 * not the core's speed. What the samples do see is the core itself running slower, as it does on
 * this virtual machine when the host is busy (docs/performance.md "How much the machine moves the
 * figures"). About 0.6 ms of work per sample on a quiet machine: 0.3 % of the core.
 */
const cells = new Float64Array(1 << 14);

function work() {
  let sum = 0;
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < cells.length; i++) {
      cells[i] = cells[(i * 7919) & (cells.length - 1)] * 0.5 + i;
      sum += cells[i];
    }
  }
  return sum;
}

// Compiled and warm before the first sample counts.
for (let i = 0; i < 50; i++) work();

setInterval(() => {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  process.stdout.write(`${Date.now()} ${spent.user + spent.system}\n`);
}, 200);

// The bench's end (or its crash) closes the pipe: the probe ends with it.
process.stdout.on('error', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
