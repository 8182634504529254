import ICAL from 'ical.js';

/**
 * Reads a .vcf or .ics as strictly as the RFCs write it: CRLF line ends only, physical lines of at most 75
 * octets, continuation lines starting with one space, every content line `NAME[;PARAMS]:value`, exactly one
 * component of the expected kind and nothing after it; then parsed by ical.js (which reads both formats) into
 * the component a contacts or calendar app would import. Throws naming the first rule broken.
 */
export function strictComponent(text: string, kind: 'vcard' | 'vcalendar'): ICAL.Component {
  if (!text.endsWith('\r\n')) throw new Error('the file must end with CRLF');
  const physical = text.slice(0, -2).split('\r\n');
  physical.forEach((line, i) => {
    if (/[\r\n]/.test(line)) throw new Error(`line ${i + 1} has a bare CR or LF`);
    if (Buffer.byteLength(line) > 75) throw new Error(`line ${i + 1} is ${Buffer.byteLength(line)} octets (over 75)`);
    if (line.includes('\uFFFD')) throw new Error(`line ${i + 1} holds a broken UTF-8 sequence`);
  });
  const logical = text.replace(/\r\n /g, '').slice(0, -2).split('\r\n');
  for (const line of logical) {
    if (!/^[A-Za-z0-9-]+(;[A-Za-z0-9-]+=("[^"]*"|[^;:,"]*)(,("[^"]*"|[^;:,"]*))*)*:/.test(line)) throw new Error(`not a content line: ${line.slice(0, 60)}`);
  }
  const name = kind.toUpperCase();
  if (logical[0] !== `BEGIN:${name}` || logical.at(-1) !== `END:${name}`) throw new Error(`the file must be exactly one ${name}`);
  if (logical.filter((l) => l === `BEGIN:${name}`).length !== 1) throw new Error(`more than one ${name}`);
  const component = new ICAL.Component(ICAL.parse(text) as unknown[]);
  if (component.name !== kind) throw new Error(`parsed as ${component.name}, not ${kind}`);
  return component;
}

/** The TYPE parameter of a property as a sorted, lower-case list (`['cell']`, `['voice', 'work']`). */
export function typesOf(property: ICAL.Property): string[] {
  const type = property.getParameter('type') as string | string[] | undefined;
  return (Array.isArray(type) ? type : type === undefined ? [] : [type]).map((t) => t.toLowerCase()).sort();
}
