/** A moment as people read it, in their time zone, with the exact instant in `datetime` for machines. */
export function When(props: { at: Date; zone: string }) {
  const shown = new Intl.DateTimeFormat('en-GB', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: props.zone,
    timeZoneName: 'short',
  }).format(props.at);
  return <time datetime={props.at.toISOString()}>{shown}</time>;
}
