# SGLang configuration generator: MiniMax-M3.1-Flash, AMD MI355X, one TP 4 service
SGLANG_USE_AITER=1 python3 -m sglang.launch_server \
  --model-path MiniMaxAI/MiniMax-M3.1-Flash \
  --tp 4 \
  --quantization mxfp8 --dtype bfloat16 \
  --mem-fraction-static 0.80 \
  --trust-remote-code \
  --reasoning-parser minimax-m3 \
  --host 0.0.0.0 --port 30000
