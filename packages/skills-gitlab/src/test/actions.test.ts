import { outputSchemaProblems } from '@nexus/registry/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isMutatingAction } from '../action-kinds.js';
import { gitlabSkills } from '../gitlab-family.js';
import { type ActionCase, caseTitle } from './action-case-fixture.js';
import { ciCases } from './ci-cases-fixture.js';
import { codeReviewCases } from './code-review-cases-fixture.js';
import { configCases } from './config-cases-fixture.js';
import { foundationCases } from './foundation-cases-fixture.js';
import { createHarness, type Harness } from './harness-fixture.js';
import { projectManagementCases } from './project-management-cases-fixture.js';
import { reachCases } from './reach-cases-fixture.js';

const cases: ActionCase[] = [...foundationCases, ...projectManagementCases, ...codeReviewCases, ...ciCases, ...configCases, ...reachCases];

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('every action sends the documented request', () => {
  it.each(cases.map((testCase) => [caseTitle(testCase), testCase] as const))('%s', async (_title, testCase) => {
    const result = await h.call(testCase.tool, testCase.args);
    expect(result.error).toBe('');
    const request = h.last();
    expect(`${request.method} ${request.path}`).toBe(`${testCase.method} ${testCase.path}`);
    if (testCase.query) expect(request.query).toMatchObject(testCase.query);
    if (testCase.graphql) expect(request.graphql).toMatchObject(testCase.graphql);
    else expect(request.body).toEqual(testCase.body);
    if (testCase.output) expect(result.output).toMatch(testCase.output);
    expect(result.data).toMatchObject({ action: testCase.args.action });
    expect(await outputSchemaProblems(h.registry, testCase.tool, result)).toEqual([]);
  });
});

describe('mutating actions', () => {
  const mutating = cases.filter((testCase) => isMutatingAction(String(testCase.args.action)));

  it.each(mutating.map((testCase) => [caseTitle(testCase), testCase] as const))(
    '%s: dry_run returns the request and sends nothing',
    async (_title, testCase) => {
      const result = await h.call(testCase.tool, { ...testCase.args, dry_run: true });
      expect(result.error).toBe('');
      expect(h.server.writes()).toEqual([]);
      const url = testCase.graphql ? `${h.server.url}/api/graphql` : `${h.server.url}/api/v4${testCase.dryRunPath ?? testCase.path}`;
      expect(result.output).toContain(`${testCase.method} ${url}`);
      expect(await outputSchemaProblems(h.registry, testCase.tool, result)).toEqual([]);
      const requests = (result.data as { requests: Array<{ method: string; url: string; body?: { variables?: unknown } }> }).requests;
      expect(requests.at(-1)).toMatchObject({ method: testCase.method, url: expect.stringContaining(url) });
      if (testCase.graphql) expect(requests.at(-1)?.body?.variables).toEqual(testCase.graphql.variables);
      else if (testCase.body !== undefined) expect(requests.at(-1)?.body).toEqual(testCase.dryRunBody ?? testCase.body);
    },
  );
});

describe('coverage', () => {
  it('has a case for every action of every skill', () => {
    const missing: string[] = [];
    for (const spec of gitlabSkills.skills) {
      const actions = (spec.parameters.properties!.action as { enum: string[] }).enum;
      for (const action of actions) {
        if (!cases.some((testCase) => testCase.tool === spec.name && testCase.args.action === action))
          missing.push(`${spec.name} ${action}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
