/** Where to go after sign-in: a path on this site only (never `//elsewhere` or a full URL), else the code list. */
export function safeNext(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || raw.length > 2000) return '/codes';
  if (raw === '/' || raw.startsWith('/login')) return '/codes';
  return raw;
}
