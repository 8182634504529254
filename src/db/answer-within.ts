/**
 * `promise`, or a rejection once `ms` have passed without its answer: for checks that must not wait on a hung
 * database (readiness probes, replica probes). The query itself goes on; only the caller stops waiting.
 */
export function answerWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
