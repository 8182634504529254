// An Optic rule (run by `npm run check:compat` beside Optic's own breaking-changes ruleset): a value may not
// disappear from an enum in a response. Optic treats narrowing a response enum as safe, but clients branch on
// these values (error codes above all), so for us it is a breaking change.
const { PropertyRule, RuleError, Ruleset } = require('@useoptic/rulesets-base');

// An open enum is written as a union of enums (`anyOf` of the released values and the values added since), so
// values are collected from the branches too; without that, a value removed from a branch would go unnoticed.
const valuesOf = (schema) => {
  if (!schema) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const values = branches.map(valuesOf);
  return values.every((each) => each !== undefined) ? values.flat() : undefined;
};

const preventResponseEnumRemoval = new PropertyRule({
  name: 'prevent removing response enum values',
  matches: (property) => valuesOf(property.raw) !== undefined,
  rule: (property) => {
    property.changed((before, after) => {
      if (!('inResponse' in after.location.conceptualLocation)) return;
      const kept = new Set(valuesOf(after.raw) ?? []);
      const removed = (valuesOf(before.raw) ?? []).filter((value) => !kept.has(value));
      if (removed.length > 0) {
        throw new RuleError({ message: `cannot remove ${removed.map((v) => `'${v}'`).join(', ')} from a response enum. This is a breaking change.` });
      }
    });
  },
});

module.exports = {
  configSchema: {},
  rulesetConstructor: () => new Ruleset({ name: 'qroute response enums', rules: [preventResponseEnumRemoval] }),
};
