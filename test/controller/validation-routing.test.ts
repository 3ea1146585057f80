import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clusterIdentity,
  destinationConcerns,
  projectChangeConcerns,
  refusedByValidation,
  sameIdentity,
  templateProjects,
} from '../../src/controller/routing/validation-routing.js';

const template = (project: unknown) => ({ metadata: {}, spec: { project } });
const clusterSecret = (data: Record<string, string>, type = 'cluster') => ({
  metadata: { labels: { 'argocd.argoproj.io/secret-type': type } },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

describe('routing for the checks of generated Applications', () => {
  it("finds the template's project and the generators' own, nested ones included", () => {
    const spec = {
      template: template('default'),
      generators: [{ list: { elements: [], template: template('list-project') } }, { matrix: { generators: [{ git: { template: template('{{p}}') } }] } }],
    };
    assert.deepEqual(templateProjects(spec), ['default', 'list-project', '{{p}}']);
    assert.deepEqual(templateProjects({ generators: [{ list: {} }] }), []);
    assert.deepEqual(templateProjects(undefined), []);
  });

  it('concerns an ApplicationSet whose templates name the AppProject or template the name', () => {
    assert.equal(projectChangeConcerns({ template: template('team-a') }, 'team-a'), true);
    assert.equal(projectChangeConcerns({ template: template('team-a') }, 'team-b'), false);
    assert.equal(projectChangeConcerns({ template: template('{{.project}}') }, 'team-b'), true, 'a templated project may render to any');
    assert.equal(projectChangeConcerns({ template: template('default'), generators: [{ list: { template: template('team-b') } }] }, 'team-b'), true);
    assert.equal(projectChangeConcerns({ template: { metadata: {} } }, 'team-b'), false, 'no project named anywhere');
  });

  it('recognises an ApplicationSet refused for its generated Applications', () => {
    const withCondition = (reason: string, status = 'True') => ({ status: { conditions: [{ type: 'ErrorOccurred', status, reason }] } });
    assert.equal(refusedByValidation(withCondition('ApplicationValidationError')), true);
    assert.equal(refusedByValidation(withCondition('ApplicationValidationError', 'False')), false);
    assert.equal(refusedByValidation(withCondition('RenderTemplateParamsError')), false);
    assert.equal(refusedByValidation({}), false);
  });

  it('names the servers and names a cluster Secret answers to', () => {
    assert.deepEqual(clusterIdentity(clusterSecret({ name: 'prod', server: 'https://prod/' })), { servers: ['https://prod'], names: ['prod'] });
    assert.deepEqual(clusterIdentity(clusterSecret({ name: 'local', server: 'https://kubernetes.default.svc' })), {
      servers: ['https://kubernetes.default.svc'],
      names: ['local', 'in-cluster'],
    });
    assert.deepEqual(clusterIdentity(clusterSecret({ server: 'https://x' }, 'repository')), { servers: [], names: [] });
    assert.deepEqual(clusterIdentity(undefined), { servers: [], names: [] });
    assert.equal(sameIdentity(clusterIdentity(clusterSecret({ name: 'a', server: 's' })), clusterIdentity(clusterSecret({ name: 'b', server: 's' }))), false);
  });

  it("matches an Application's destination by server (trailing slash aside) or by name", () => {
    const prod = clusterIdentity(clusterSecret({ name: 'prod', server: 'https://prod' }));
    const app = (destination: Record<string, string>) => ({ spec: { destination } });
    assert.equal(destinationConcerns(app({ server: 'https://prod/' }), [prod]), true);
    assert.equal(destinationConcerns(app({ name: 'prod' }), [prod]), true);
    assert.equal(destinationConcerns(app({ name: 'dev', server: 'https://dev' }), [prod]), false);
    assert.equal(destinationConcerns({}, [prod]), false);
  });
});
