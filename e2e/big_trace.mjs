// A synthetic trace-cmd report text for the large-file tests and screenshots (shared by
// traces.test.mjs and screens.mjs).

/**
 * `n` ping-pong rounds on two CPUs, one every `period` ns (about 520 bytes a round; 125,000
 * rounds is ~100 MB).
 */
export function bigTrace(n, period = 20000) {
  const ts = (ns) => `${Math.floor(ns / 1e9)}.${String(ns % 1e9).padStart(9, '0')}`;
  const out = ['cpus=2'];
  let t = 100e9;
  for (let i = 0; i < n; i++) {
    out.push(`ping-101 [000] d..3. ${ts(t)}: sched_wakeup: comm=pong pid=102 prio=120 target_cpu=001`);
    out.push(`ping-101 [000] d..2. ${ts(t + 1000)}: sched_switch: prev_comm=ping prev_pid=101 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120`);
    out.push(`<idle>-0 [001] d..2. ${ts(t + 3000)}: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=pong next_pid=102 next_prio=120`);
    out.push(`pong-102 [001] d..3. ${ts(t + 8000)}: sched_wakeup: comm=ping pid=101 prio=120 target_cpu=000`);
    out.push(`pong-102 [001] d..2. ${ts(t + 9000)}: sched_switch: prev_comm=pong prev_pid=102 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120`);
    out.push(`<idle>-0 [000] d..2. ${ts(t + 11000)}: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ping next_pid=101 next_prio=120`);
    t += period;
  }
  return Buffer.from(out.join('\n') + '\n');
}
