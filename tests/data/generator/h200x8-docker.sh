# SGLang configuration generator: MiniMax-M3.1-Flash, 8 x H200
docker run --gpus all \
    --shm-size 32g \
    -p 30000:30000 \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --ipc=host \
    -e FMHA_SM100_ALLOW_JIT=1 \
    lmsysorg/sglang:dev-minimax-m31-flash \
    sglang serve --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp-size 8 \
    --attention-backend fa3 --chunked-prefill-size 8192 --mem-fraction-static 0.75 \
    --trust-remote-code --reasoning-parser minimax-m3 --tool-call-parser minimax-m3
