/* cg_sharing_file.h -- writes the sharing profile (--sharing=yes) at
   exit (cg_sharing_file.c states its format). */

#ifndef CG_SHARING_FILE_H
#define CG_SHARING_FILE_H

/* Before the program runs: the name template, for the fork checks */
void cg_sharing_file_expect(void);
/* At exit: classifies the lines and writes the file */
void cg_sharing_file_write(void);

#endif /* CG_SHARING_FILE_H */
