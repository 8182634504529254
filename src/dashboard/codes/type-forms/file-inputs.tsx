import type { FileField, FilesField } from './index.js';
import { positionName, removeName, uploadName } from './index.js';
import { FieldMessages } from './field-message.js';
import { fieldId, type FieldProblems } from './field-problems.js';

/** Names of the files a form already holds, by id (the upload's own name, for display only). */
export type FileNames = ReadonlyMap<string, string>;

/**
 * One file (a PDF, a photo): the file it holds now travels in a hidden field and stays unless a new one is
 * chosen (or, for an optional one, "Remove" is ticked). A file uploaded with a refused form is held the same way,
 * so it is not uploaded twice.
 */
export function FileInput(props: { field: FileField; path: string; idPrefix: string; value: unknown; names: FileNames; problems: FieldProblems }) {
  const { field, path } = props;
  const current = typeof props.value === 'string' ? props.value : undefined;
  const id = fieldId(props.idPrefix, path);
  const problem = props.problems[path];
  const hint = [current ? `Uploaded: ${props.names.get(current) ?? 'a file'}. Choose another file to replace it.` : undefined, field.hint].filter(Boolean).join(' ') || undefined;
  return (
    <div class="form-field">
      {current && <input type="hidden" name={path} value={current} />}
      <label for={id}>{field.label}</label>
      <input
        type="file"
        id={id}
        name={uploadName(path)}
        accept={field.accept}
        required={field.required && !current}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={[problem ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined}
      />
      <FieldMessages id={id} label={field.label} hint={hint} problem={problem} />
      {current && !field.required && (
        <label for={`${id}-remove`}>
          <input type="checkbox" id={`${id}-remove`} name={removeName(path)} value="on" /> Remove the {field.label.toLowerCase()}
        </label>
      )}
    </div>
  );
}

/**
 * A gallery: the images it holds as thumbnails, in their order, each with its position, Up/Down (with JavaScript)
 * and "Remove", and a picker that adds more (several at once; app.js shows them as thumbnails before they are
 * sent, which can be put in order or taken out too). Without JavaScript the order is the positions typed.
 */
export function FilesInput(props: { field: FilesField; path: string; idPrefix: string; value: unknown; names: FileNames; problems: FieldProblems }) {
  const { field, path } = props;
  const ids = Array.isArray(props.value) ? (props.value as unknown[]).filter((v): v is string => typeof v === 'string') : [];
  const id = fieldId(props.idPrefix, path);
  return (
    <fieldset class="form-list gallery-field">
      <legend>{field.label}</legend>
      {ids.length > 0 && (
        <ol class="file-list gallery-list" data-gallery>
          {ids.map((fileId, i) => {
            const itemPath = `${path}/${i}`;
            const itemId = fieldId(props.idPrefix, itemPath);
            const name = props.names.get(fileId) ?? 'a file';
            return (
              <li class="gallery-item">
                <input type="hidden" name={itemPath} value={fileId} />
                {/* The public file URL: a gallery image is public to anyone with its link anyway (its landing page). */}
                <img class="gallery-thumb" src={`/files/${encodeURIComponent(fileId)}`} alt={name} width={72} height={72} loading="lazy" />
                <div class="gallery-controls">
                  <label for={`${itemId}-position`} class="gallery-position-label">
                    Position<span class="visually-hidden"> of {name}</span>
                  </label>
                  <input type="number" class="gallery-position" id={`${itemId}-position`} name={positionName(itemPath)} value={String(i + 1)} min={1} max={ids.length} inputMode="numeric" />
                  <span class="gallery-moves" data-needs-js hidden>
                    {/* Named in full (the visible word first, as WCAG's label-in-name asks): a list of "Up" is no help. */}
                    <button type="button" class="secondary outline small-button" data-move="up" aria-label={`Up: move ${name} earlier`}>
                      Up
                    </button>
                    <button type="button" class="secondary outline small-button" data-move="down" aria-label={`Down: move ${name} later`}>
                      Down
                    </button>
                  </span>
                  <label for={`${itemId}-remove`}>
                    <input type="checkbox" id={`${itemId}-remove`} name={removeName(itemPath)} value="on" /> Remove {name}
                  </label>
                </div>
                <FieldMessages id={itemId} label={name} problem={props.problems[itemPath]} />
              </li>
            );
          })}
        </ol>
      )}
      <div class="form-field">
        <label for={id}>Add {field.label.toLowerCase()}</label>
        <input type="file" id={id} name={uploadName(path)} accept={field.accept} multiple data-gallery-picker aria-describedby={`${id}-hint${props.problems[path] ? ` ${id}-error` : ''}`} />
        <FieldMessages id={id} label={field.label} hint={`${field.hint ?? `Up to ${field.max}.`} New images go after the ones above.`} problem={props.problems[path]} />
        <ol class="file-list gallery-list gallery-pending" data-gallery-pending aria-label={`${field.label} chosen, not yet saved`} hidden></ol>
      </div>
    </fieldset>
  );
}
