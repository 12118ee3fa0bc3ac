import { describe, expect, it } from 'vitest';
import * as consolePackage from './index.js';

describe('the @nexus/console surface', () => {
  it('exports only where the built page is', () => {
    expect(Object.keys(consolePackage)).toEqual(['consoleAssetsDir']);
    expect(consolePackage.consoleAssetsDir).toMatch(/\/dist\/app\/$/);
  });
});
