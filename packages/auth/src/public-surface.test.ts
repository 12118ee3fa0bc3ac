import { describe, expect, it } from 'vitest';
import * as auth from './index.js';

describe('the @nexus/auth surface', () => {
  it('exports the bearer checks and the OAuth client, nothing internal', () => {
    expect(Object.keys(auth).sort()).toEqual([
      'ALLOWED_TOKEN_ALGORITHMS',
      'FileOAuthClient',
      'OAuthLoginError',
      'bearerChallenge',
      'createBearerAuth',
      'protectedResourceMetadata',
      'protectedResourceMetadataPath',
      'refusalChallenge',
    ]);
  });
});
