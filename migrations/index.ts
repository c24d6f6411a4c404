import { InitialSchema1732280000000 } from './1732280000000-initial-schema.js';

/** Every migration, in order. Listed explicitly so compiled and test runs load the same classes. */
export const migrations = [InitialSchema1732280000000];
