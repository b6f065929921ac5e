import t from 'tap';
import { validateRecord, SCHEMA_VERSION } from '../../../lib/protocol/records.js';

t.test('a doc record with another schema version is rejected, saying which was expected', async (t) => {
  const problem = validateRecord({ type: 'doc', id: 'a', source: 'x', schema: SCHEMA_VERSION + 1, meta: {} });
  t.match(problem, /schema version/);
  t.equal(validateRecord({ type: 'doc', id: 'a', source: 'x', schema: SCHEMA_VERSION, meta: {} }), null);
});
