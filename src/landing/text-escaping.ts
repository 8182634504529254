/**
 * Escaping for the files the landing pages hand out. vCard (RFC 6350 §3.4) and iCalendar (RFC 5545 §3.3.11)
 * escape text the same way. (A WIFI string escapes its own specials: src/codes/types/wifi-string.ts.)
 */

/** Backslash, comma, semicolon and line ends: a hostile value cannot start a new property or component. */
export function escapeCalendarText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Content lines longer than 75 octets are folded (CRLF then a space), never inside a UTF-8 sequence; lines end
 * in CRLF. Both RFCs say the same.
 */
export function foldLines(lines: string[]): string {
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // The first line holds 75 octets; continuation lines 74 after their leading space.
    const room = parts.length === 0 ? 75 : 74;
    if (octets + size > room) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
