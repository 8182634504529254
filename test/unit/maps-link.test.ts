import { describe, expect, it } from 'vitest';
import { mapsSearchUrl } from '../../src/landing/maps-link.js';

describe('an address linked to a maps search', () => {
  it.each([
    ['Market Square 1', 'https://www.google.com/maps/search/?api=1&query=Market%20Square%201'],
    // Lines become the parts of one query; blank lines and edge spaces go.
    ['  Hafenstraße 5 \r\n\n20457 Hamburg\nGermany ', 'https://www.google.com/maps/search/?api=1&query=Hafenstra%C3%9Fe%205%2C%2020457%20Hamburg%2C%20Germany'],
    // Characters that would end or extend the query are encoded, so an address cannot add parameters.
    ['1 Main St #2 & Co?x=1', 'https://www.google.com/maps/search/?api=1&query=1%20Main%20St%20%232%20%26%20Co%3Fx%3D1'],
  ])('%j → %s', (address, expected) => {
    expect(mapsSearchUrl(address)).toBe(expected);
  });
});
