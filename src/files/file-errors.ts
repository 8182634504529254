/** Why an upload was refused; the dashboard maps each to a worded message next to the form. */
export type FileRejection = 'empty_file' | 'unsupported_type' | 'file_too_large' | 'storage_full' | 'invalid_svg' | 'image_too_large';

const STATUS: Record<FileRejection, number> = {
  empty_file: 400,
  unsupported_type: 415,
  file_too_large: 413,
  storage_full: 413,
  invalid_svg: 422,
  image_too_large: 422,
};

/** An upload refused for a reason the uploader can act on. Nothing of it is stored. */
export class FileRejectedError extends Error {
  readonly status: number;

  constructor(
    readonly reason: FileRejection,
    message: string,
  ) {
    super(message);
    this.name = 'FileRejectedError';
    this.status = STATUS[reason];
  }
}

export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
