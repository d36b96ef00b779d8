/* cg_data_file.h -- the data profile's file (cg_data_file.c). */

#ifndef CG_DATA_FILE_H
#define CG_DATA_FILE_H

/* At start-up: the file's name is checked like the main file's. */
void cg_data_file_expect(void);
/* At exit, after the main file: cachegrind.data.<pid>. */
void cg_data_file_write(void);

#endif /* CG_DATA_FILE_H */
