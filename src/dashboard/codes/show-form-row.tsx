import type { RequestHandler } from 'express';
import { isCodeTypeName } from '../../codes/types/index.js';
import { AddRowButton, ListRow, RowsRow } from './type-forms/list-inputs.js';
import type { DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { sendFragment } from '../shared/render.js';
import { pathOf, TYPE_FORMS } from './type-forms/index.js';

/**
 * GET /codes/form-row?type=…&field=…&index=…&prefix=…: one more empty row of a list field and the button that
 * fetches the next (htmx's "Add another"). Nothing is read or stored; the query only chooses what to draw.
 */
export function showFormRow(_deps: DashboardDependencies): RequestHandler {
  return (req, res) => {
    const { type, field: key, index: rawIndex, prefix } = req.query;
    const field = typeof type === 'string' && isCodeTypeName(type) ? TYPE_FORMS[type].fields.find((f) => f.key === key) : undefined;
    const index = Number(rawIndex);
    const idPrefix = prefix === 'edit-code' ? 'edit-code' : 'new-code';
    if (!field || (field.kind !== 'list' && field.kind !== 'rows') || !Number.isInteger(index) || index < 0 || index >= field.max) {
      throw new DashboardError(404, 'No such row', 'This form has no such list.');
    }
    const common = { path: pathOf(field.key), idPrefix, index, value: undefined, problems: {} };
    sendFragment(
      res,
      <>
        {field.kind === 'list' ? <ListRow field={field} {...common} /> : <RowsRow field={field} {...common} />}
        <AddRowButton field={field} idPrefix={idPrefix} formType={type as string} index={index + 1} shown />
      </>,
    );
  };
}
