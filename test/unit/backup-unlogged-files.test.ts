import { describe, expect, it } from 'vitest';
import { unloggedForks, unloggedMembers, unloggedRelationPatterns } from '../../src/cli/unlogged-files.js';

describe('what a backup leaves out of unlogged relations (as pg_basebackup)', () => {
  it('leaves out every fork and segment of a relation with an init fork, but the init fork', () => {
    const names = ['16400', '16400.1', '16400_fsm', '16400_vm', '16400_fsm.1', '16400_init', '16401', '16401_fsm', '164000', 'PG_VERSION', 'pg_filenode.map', 't3_16402'];
    expect(unloggedForks(names)).toEqual(['16400', '16400.1', '16400_fsm', '16400_vm', '16400_fsm.1']);
  });

  it('keeps everything of a directory without init forks', () => {
    expect(unloggedForks(['16401', '16401_fsm', '16401_vm', '16401.2'])).toEqual([]);
  });

  it('finds them in database directories of the archive only, each directory on its own', () => {
    const members = [
      'pg/base/5/',
      'pg/base/5/16400',
      'pg/base/5/16400_init',
      'pg/base/5/16401',
      'pg/base/1/16400',
      'pg/global/16400',
      'pg/global/16400_init',
      'pg/pg_tblspc/16500/PG_18_202506291/5/16600',
      'pg/pg_tblspc/16500/PG_18_202506291/5/16600_init',
      'pg/pg_wal/000000010000000000000003',
    ];
    expect(unloggedMembers(members)).toEqual(['pg/base/5/16400', 'pg/pg_tblspc/16500/PG_18_202506291/5/16600']);
  });

  it('excludes the forks a relation may still grow while tar runs, never the init fork', () => {
    const patterns = unloggedRelationPatterns('pg/base/5', '16400');
    expect(patterns).toEqual(['pg/base/5/16400', 'pg/base/5/16400.*', 'pg/base/5/16400_fsm', 'pg/base/5/16400_fsm.*', 'pg/base/5/16400_vm', 'pg/base/5/16400_vm.*']);
  });
});
