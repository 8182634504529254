/**
 * CPU accounting for the profiles (profile.ts): clock ticks of processes from /proc, PostgreSQL's by process kind,
 * and self and total time per function from a V8 CPU profile.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Linux's USER_HZ: /proc reports CPU time in these. */
export const CLOCK_TICKS_PER_SECOND = 100;

export interface CpuProfile {
  nodes: Array<{ id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name, file and line), in microseconds, largest first. */
export function selfTimes(profile: CpuProfile): Array<[string, number]> {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const name = frameName(byNode.get(id)!.callFrame);
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Time in each function and everything it called (a recursive function counted once per sample), largest first. */
export function totalTimes(profile: CpuProfile): Array<[string, number]> {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = frameName(byNode.get(at)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
    }
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

function frameName(frame: { functionName: string; url: string; lineNumber: number }): string {
  const file = frame.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1');
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
}

/** CPU clock ticks of one process from /proc/<pid>/stat: its own (user space, kernel) and its waited-for children's. */
async function processTimes(pid: number): Promise<{ user: number; system: number; exitedChildren: number } | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { user: fields[11]!, system: fields[12]!, exitedChildren: fields[13]! + fields[14]! };
}

/** processTimes of a process that must be running (qroute, the bare server). */
export async function liveProcessTimes(pid: number): Promise<{ user: number; system: number }> {
  const times = await processTimes(pid);
  if (!times) throw new Error(`process ${pid} is not running`);
  return times;
}

/**
 * PostgreSQL's CPU ticks by process kind (client backends, WAL writer, checkpointer, autovacuum…), from each
 * process title; the postmaster's `exited children` counts the short-lived ones (autovacuum workers) that ended.
 */
export async function postgresTicksByKind(dataDir: string): Promise<Map<string, number>> {
  const byKind = new Map<string, number>();
  const add = (kind: string, ticks: number) => byKind.set(kind, (byKind.get(kind) ?? 0) + ticks);
  const [postmaster, ...children] = await postgresPids(dataDir);
  for (const pid of [postmaster!, ...children]) {
    const times = await processTimes(pid);
    if (!times) continue;
    const title = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').trim();
    // "postgres: qroute qroute 127.0.0.1(5432) idle" (TCP) or "postgres: qroute qroute [local] idle" (the socket
    // qroute uses) is a client backend; "postgres: walwriter " a helper.
    const kind = pid === postmaster ? 'postmaster' : /^postgres: \S+ \S+ ([\d.:[\]]+\(\d+\)|\[local\])/.test(title) ? 'client backends' : title.replace(/^postgres: /, '').replace(/\s.*$/, '') || 'other';
    add(kind, times.user + times.system);
    if (pid === postmaster) add('exited children (autovacuum workers…)', times.exitedChildren);
  }
  return byKind;
}

/** The postmaster of this data directory and all its children (backends, WAL writer, checkpointer…). */
export async function postgresPids(dataDir: string): Promise<number[]> {
  const pidFile = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(async () => {
    const entries = await fs.readdir(dataDir);
    for (const entry of entries) {
      const text = await fs.readFile(path.join(dataDir, entry, 'postmaster.pid'), 'utf8').catch(() => undefined);
      if (text) return text;
    }
    throw new Error(`no postmaster.pid under ${dataDir}`);
  });
  const postmaster = Number(pidFile.split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}
