// The entry point of flashdeck_layer_link_<layer> (backend/CMakeLists.txt): a program that links
// one layer whole with only the layers it declares. It is built, never run; that it links is the check.
int main()
{
    return 0;
}
