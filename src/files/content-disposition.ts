/**
 * `inline; filename="…"; filename*=UTF-8''…` (RFC 6266, RFC 8187): the quoted name is an ASCII fallback with
 * quotes, backslashes and anything outside printable ASCII replaced, for clients that ignore `filename*`.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const fallback = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
