# Run at every build: writes the current commit into build_commit.h, touching
# the file only when it changes.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if (NOT commit)
    set(commit unknown)
elseif (dirty)
    set(commit "${commit}+uncommitted")
endif ()
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT "#define FILTERLAB_GIT_COMMIT \"${commit}\"\n")
