import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { nexusStateDir } from './index.js';

describe('nexusStateDir', () => {
  it('is $XDG_STATE_HOME/nexus, else ~/.local/state/nexus', () => {
    expect(nexusStateDir({ XDG_STATE_HOME: '/var/state', HOME: '/home/me' })).toBe('/var/state/nexus');
    expect(nexusStateDir({ XDG_STATE_HOME: '', HOME: '/home/me' })).toBe('/home/me/.local/state/nexus');
    expect(nexusStateDir({})).toBe(`${homedir()}/.local/state/nexus`);
  });
});
