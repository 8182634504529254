import type { ComponentChildren } from 'preact';
import { CORNER_DOT_SHAPES, CORNER_FRAME_SHAPES, ERROR_CORRECTION_LEVELS, MODULE_SHAPES } from '../../qr/design/design.js';
import type { DesignFormValues } from './design-form.js';
import { CsrfField } from '../shared/layout.js';
import { uploadAction } from '../shared/csrf.js';
import { DesignPreview } from './design-preview.js';
import { LOGO_SAVED_EVENT, LogoStatus, RemoveLogoSlot } from './logo-status.js';

export interface DesignEditorProps {
  csrfToken: string;
  /** Where the form is saved (POST), e.g. /codes/<id>/design. Its preview is `${action}/preview`, its logo `${action}/logo`. */
  action: string;
  values: DesignFormValues;
  hasLogo: boolean;
  preview: { svg: string | null; problems: string[] };
  /** Fields before the design's own (a template's name). */
  before?: ComponentChildren;
  /** The submit buttons. */
  buttons: ComponentChildren;
}

const SHAPE_NAMES: Record<string, string> = {
  square: 'Square',
  dots: 'Dots',
  rounded: 'Rounded',
  classy: 'Classy',
  'classy-rounded': 'Classy rounded',
  dot: 'Circle',
};

const LEVEL_NAMES: Record<string, string> = {
  L: 'L: 7% may be damaged',
  M: 'M: 15%',
  Q: 'Q: 25%',
  H: 'H: 30%',
};

/**
 * Every field of a design, with the live preview beside them. A plain form: without JavaScript "Save" sends it
 * and the page comes back with the preview and any reasons it was refused; with htmx every change posts the form
 * to the preview endpoint after a short pause, and only the preview's parts are swapped (design-preview.tsx); a
 * logo upload swaps only the logo part, so the form's unsaved values stay (logo-status.tsx).
 */
export function DesignEditor(props: DesignEditorProps) {
  const v = props.values;
  return (
    <div class="design-editor">
      <div class="design-editor-fields">
        <form
          method="post"
          action={uploadAction(`${props.action}/logo`, props.csrfToken)}
          enctype="multipart/form-data"
          class="design-logo-form"
          hx-post={uploadAction(`${props.action}/logo`, props.csrfToken)}
          hx-encoding="multipart/form-data"
          hx-target="#design-logo-status"
          hx-swap="innerHTML"
        >
          <fieldset>
            <legend>Logo</legend>
            <div id="design-logo-status" aria-live="polite">
              <LogoStatus hasLogo={props.hasLogo} />
            </div>
            <label for="design-logo-file">Logo file</label>
            <input id="design-logo-file" type="file" name="logo" accept="image/png,image/jpeg,image/svg+xml" required />
            <button type="submit" class="secondary">
              Upload logo
            </button>
          </fieldset>
        </form>
        <form
          id="design-form"
          method="post"
          action={props.action}
          hx-post={`${props.action}/preview`}
          hx-trigger={`input delay:300ms, change, ${LOGO_SAVED_EVENT} from:body`}
          hx-swap="none"
          hx-sync="this:replace"
        >
          <CsrfField token={props.csrfToken} />
          {props.before}
          <fieldset>
            <legend>Colours</legend>
            <Select id="design-fill" name="fill" label="Foreground" value={v.fill} options={[['solid', 'One colour'], ['linear', 'Linear gradient'], ['radial', 'Radial gradient']]} />
            <Colour id="design-color" name="color" label="Foreground colour (one colour)" value={v.color} />
            <div class="grid">
              <Colour id="design-stop1" name="stop1" label="Gradient colour 1" value={v.stop1} />
              <NumberField id="design-stop1-at" name="stop1At" label="Colour 1 at (%)" value={v.stop1At} min={0} max={100} />
            </div>
            <div class="grid">
              <Colour id="design-stop2" name="stop2" label="Gradient colour 2" value={v.stop2} />
              <NumberField id="design-stop2-at" name="stop2At" label="Colour 2 at (%)" value={v.stop2At} min={0} max={100} />
            </div>
            <Checkbox id="design-stop3-use" name="stop3Use" label="A middle gradient colour" checked={v.stop3Use} />
            <div class="grid">
              <Colour id="design-stop3" name="stop3" label="Middle gradient colour" value={v.stop3} />
              <NumberField id="design-stop3-at" name="stop3At" label="Middle colour at (%)" value={v.stop3At} min={0} max={100} />
            </div>
            <NumberField id="design-angle" name="angle" label="Linear gradient angle (degrees, 0 is left to right)" value={v.angle} min={0} max={360} />
            <Colour id="design-background" name="background" label="Background colour" value={v.background} />
            <Checkbox id="design-transparent" name="transparent" label="Transparent background (checked as if on white paper)" checked={v.transparent} />
            <Checkbox id="design-confirm-inverted" name="confirmInverted" label="Keep an inverted code (light on dark), which some scanners cannot read" checked={v.confirmInverted} />
          </fieldset>
          <fieldset>
            <legend>Shapes</legend>
            <Select id="design-module-shape" name="moduleShape" label="Module shape" value={v.moduleShape} options={MODULE_SHAPES.map((s) => [s, SHAPE_NAMES[s] ?? s])} />
            <Select id="design-corner-frame-shape" name="cornerFrameShape" label="Corner frame shape" value={v.cornerFrameShape} options={CORNER_FRAME_SHAPES.map((s) => [s, SHAPE_NAMES[s] ?? s])} />
            <Checkbox id="design-corner-frame-own" name="cornerFrameOwn" label="Own colour for the corner frames" checked={v.cornerFrameOwn} />
            <Colour id="design-corner-frame-color" name="cornerFrameColor" label="Corner frame colour" value={v.cornerFrameColor} />
            <Select id="design-corner-dot-shape" name="cornerDotShape" label="Corner dot shape" value={v.cornerDotShape} options={CORNER_DOT_SHAPES.map((s) => [s, SHAPE_NAMES[s] ?? s])} />
            <Checkbox id="design-corner-dot-own" name="cornerDotOwn" label="Own colour for the corner dots" checked={v.cornerDotOwn} />
            <Colour id="design-corner-dot-color" name="cornerDotColor" label="Corner dot colour" value={v.cornerDotColor} />
          </fieldset>
          <fieldset>
            <legend>Logo placement</legend>
            <NumberField id="design-logo-size" name="logoSize" label="Logo width (% of the code, 5–30)" value={v.logoSize} min={5} max={30} />
            <NumberField id="design-logo-margin" name="logoMargin" label="Empty modules around the logo (0–4)" value={v.logoMargin} min={0} max={4} />
            <Checkbox id="design-logo-clear" name="logoClear" label="Clear the modules behind the logo" checked={v.logoClear} />
            <RemoveLogoSlot hasLogo={props.hasLogo} checked={v.removeLogo} />
          </fieldset>
          <fieldset>
            <legend>Scanning</legend>
            <Select id="design-ecc" name="errorCorrection" label="Error correction (a logo raises it to Q or H)" value={v.errorCorrection} options={ERROR_CORRECTION_LEVELS.map((l) => [l, LEVEL_NAMES[l] ?? l])} />
            <NumberField id="design-quiet-zone" name="quietZone" label="Quiet zone (empty modules around the code; scanners expect 4)" value={v.quietZone} min={0} max={10} />
          </fieldset>
          <fieldset>
            <legend>Frame</legend>
            <Select id="design-frame-style" name="frameStyle" label="Frame" value={v.frameStyle} options={[['none', 'None'], ['banner', 'Banner under the code'], ['box', 'Box around the code']]} />
            <label for="design-frame-text">Frame text</label>
            <input id="design-frame-text" name="frameText" value={v.frameText} maxLength={30} />
            <Colour id="design-frame-color" name="frameColor" label="Frame colour" value={v.frameColor} />
            <Colour id="design-frame-text-color" name="frameTextColor" label="Frame text colour" value={v.frameTextColor} />
          </fieldset>
          {props.buttons}
        </form>
      </div>
      <section class="design-editor-preview" aria-labelledby="design-preview-heading">
        <h2 id="design-preview-heading">Preview</h2>
        <div id="design-preview" aria-live="polite">
          <DesignPreview svg={props.preview.svg} problems={props.preview.problems} page />
        </div>
      </section>
    </div>
  );
}

function Select(props: { id: string; name: string; label: string; value: string; options: readonly (readonly [string, string])[] }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        {props.options.map(([value, text]) => (
          <option value={value} selected={value === props.value}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}

function Colour(props: { id: string; name: string; label: string; value: string }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input id={props.id} name={props.name} type="color" value={props.value} />
    </>
  );
}

function NumberField(props: { id: string; name: string; label: string; value: string; min: number; max: number }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input id={props.id} name={props.name} type="number" inputMode="decimal" step="any" min={props.min} max={props.max} value={props.value} />
    </>
  );
}

function Checkbox(props: { id: string; name: string; label: string; checked: boolean }) {
  return (
    <label for={props.id}>
      <input id={props.id} name={props.name} type="checkbox" checked={props.checked} /> {props.label}
    </label>
  );
}
