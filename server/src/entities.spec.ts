import 'reflect-metadata';
import { startApi, type TestApi } from '../test/api.js';
import { entities } from './entities.js';

/** The API's entities come from its modules (forFeature); the CLI, the tests and the worker use the list. */
describe('entities', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });

  afterAll(async () => {
    await api.close();
  });

  it('the modules of the API register every entity of the list, and none besides', () => {
    const registered = api.db.entityMetadatas.map((metadata) => (typeof metadata.target === 'function' ? metadata.target.name : metadata.target));
    expect(registered.sort()).toEqual(entities.map((entity) => entity.name).sort());
  });
});
