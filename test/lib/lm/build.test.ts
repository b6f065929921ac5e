/** `pdfpipe lm build`: an ARPA model estimated from text, and its refusal of unknown verbs. */
import t from 'tap';
import { ArpaModel } from '../../../lib/lm/arpa.js';
import { run } from '../../helpers.js';

t.test('pdfpipe lm build estimates in-process when asked, and refuses unknown verbs', async (t) => {
  const out = await run(['lm', 'build', '--in-process', '--order', '2'], 'the cat sat\nthe cat ran\n');
  t.equal(out.code, 0, out.stderr);
  t.equal(ArpaModel.parse(out.stdout).order, 2);
  const bad = await run(['lm', 'train']);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /Unknown lm command "train"/);
});
