/**
 * A cell's value as the error list shows it: text only (the renderer escapes it, so markup in a cell is shown,
 * never run), with the characters a reader cannot see written out: line breaks and tabs as \n and \t, other
 * control characters, bidirectional overrides and zero-width characters as \u{…}, so a value that looks right
 * but holds one of them shows why it was refused, and an override cannot reorder the table around it.
 */
export function ShownValue(props: { value: string | undefined }) {
  if (props.value === undefined) return <span class="muted">—</span>;
  if (props.value === '') return <span class="muted">(empty)</span>;
  return <code class="import-value">{visibleText(props.value)}</code>;
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// C0 and C1 controls, DEL, zero-width and bidirectional formatting characters, the BOM.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

export function visibleText(value: string): string {
  return value.replace(INVISIBLE, (char) => NAMED[char] ?? `\\u{${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`);
}
