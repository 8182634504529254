const WEEKDAY_INDEX: Readonly<Record<string, number>> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };
const MINUTE_MS = 60_000;

/**
 * The local weekday and time of day in one zone, by the zone's rules (DST included), for the redirect's hot path.
 * Reading a local time through Intl costs a few microseconds and allocates the parts, so the formatter is made once
 * (per compiled routing) and the answer is kept for the UTC minute it was asked for: the scans of one minute share
 * one reading. Every offset in use today is a whole number of minutes, so a UTC minute is one local minute.
 *
 * Not shared between requests in flight in any way that matters: the memo is a pure function of `at`'s minute.
 */
export class LocalClock {
  private readonly format: Intl.DateTimeFormat;
  private memoMinute = Number.NaN;
  private memoWeekday = 0;
  private memoMinuteOfDay = 0;

  constructor(readonly timeZone: string) {
    // h23: midnight is 00, never 24 (hour12: false gave "24" in older ICU versions).
    this.format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' });
  }

  /** 0 for Monday … 6 for Sunday (WEEKDAYS' order), at epoch milliseconds `at`. */
  weekday(at: number): number {
    this.read(at);
    return this.memoWeekday;
  }

  /** Minutes since local midnight, 0 … 1439. */
  minuteOfDay(at: number): number {
    this.read(at);
    return this.memoMinuteOfDay;
  }

  private read(at: number): void {
    const minute = Math.floor(at / MINUTE_MS);
    if (minute === this.memoMinute) return;
    let weekday = 0;
    let hours = 0;
    let minutes = 0;
    for (const part of this.format.formatToParts(minute * MINUTE_MS)) {
      if (part.type === 'weekday') weekday = WEEKDAY_INDEX[part.value] ?? 0;
      else if (part.type === 'hour') hours = Number(part.value);
      else if (part.type === 'minute') minutes = Number(part.value);
    }
    this.memoWeekday = weekday;
    this.memoMinuteOfDay = hours * 60 + minutes;
    this.memoMinute = minute;
  }
}
