// An Optic rule (run by `npm run check:compat` beside Optic's own breaking-changes ruleset): a value may not
// disappear from an enum in a response. Optic treats narrowing a response enum as safe, but clients branch on
// these values (error codes above all), so for us it is a breaking change.
const { PropertyRule, RuleError, Ruleset } = require('@useoptic/rulesets-base');

const valuesOf = (schema) => (schema && Array.isArray(schema.enum) ? schema.enum : schema && 'const' in schema ? [schema.const] : undefined);

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
