/**
 * The preview beside the editor: the server-rendered SVG of the design as the fields stand, and whether it passes
 * the scanning checks, in words. On the page (`page`) both parts are drawn, the image part empty when there is no
 * image. As the answer to the editor's htmx preview request, both parts swap in out of band (the form swaps nothing
 * itself), and a refused design sends only its reasons: the last preview that passed stays on screen beside them
 * instead of vanishing (a page with a refused form shows the design as last saved: previewWithLastGood).
 * `#design-preview` around them is a live region, so a screen reader hears a refusal.
 */
export function DesignPreview(props: { svg: string | null; problems: string[]; page?: boolean }) {
  const outOfBand = props.page ? {} : { 'hx-swap-oob': 'true' };
  return (
    <>
      {(props.svg !== null || props.page) && (
        <div id="design-preview-image" {...outOfBand}>
          {props.svg !== null && (
            // Our own renderer's SVG (renderDesignSvg): every text in it is escaped, nothing in it is the person's markup.
            <div class="design-preview-image" role="img" aria-label="Preview of the QR code in this design" dangerouslySetInnerHTML={{ __html: props.svg }} />
          )}
        </div>
      )}
      <div id="design-preview-status" {...outOfBand}>
        {props.problems.length > 0 ? (
          <div class="design-problems">
            <p>
              <strong>This design would not scan reliably, so it cannot be saved:</strong>
            </p>
            <ul>
              {props.problems.map((problem) => (
                <li>{problem}</li>
              ))}
            </ul>
            {(!props.page || props.svg !== null) && <p class="muted">The preview shows the last version of the design that passed the checks.</p>}
          </div>
        ) : (
          <p class="muted">This design passes the scanning checks.</p>
        )}
      </div>
    </>
  );
}
