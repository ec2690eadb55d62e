// A wrong-way include for the layer check's own test: core may include nothing of backend/.
#include "backend/ssh/sshlibrary.h"
