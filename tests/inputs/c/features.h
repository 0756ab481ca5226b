/* Included by features.c: macros, an enum, typedefs (one of a struct that is never a
   value). */
#define SQUARE(v) ((v) * (v))
#define LIMIT 100
enum color { RED = 1, GREEN = 5, BLUE };
typedef int num;
typedef struct { char c; long v; } pair;
