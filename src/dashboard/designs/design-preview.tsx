/**
 * The preview beside the editor: the server-rendered SVG of the design as the fields stand, or the reasons it
 * would not scan, in words. htmx swaps this into the editor's `#design-preview` (a live region, so a screen
 * reader hears a refusal as it appears) each time a field changes.
 */
export function DesignPreview(props: { svg: string | null; problems: string[] }) {
  return (
    <>
      {props.svg !== null && (
        // Our own renderer's SVG (renderDesignSvg): every text in it is escaped, nothing in it is the person's markup.
        <div class="design-preview-image" role="img" aria-label="Preview of the QR code in this design" dangerouslySetInnerHTML={{ __html: props.svg }} />
      )}
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
        </div>
      ) : (
        <p class="muted">This design passes the scanning checks.</p>
      )}
    </>
  );
}
