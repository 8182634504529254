/** A day as YYYY-MM-DD (UTC) in a <time> element carrying the exact instant. */
export function Day(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <time datetime={iso}>{iso.slice(0, 10)}</time>;
}

/** A moment to the minute (UTC), for expiries that are hours away. */
export function Moment(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <time datetime={iso}>{`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`}</time>;
}
